import Foundation

/// Finds each filter's implementation by its Core Image name. Each family contributes its table; a program adds
/// its own filters at run time with `register(descriptor:implementation:)`.
public enum FilterRegistry {
    static let builtInImplementations: [String: FilterImplementation] = {
        var all: [String: FilterImplementation] = [:]
        let families: [[String: FilterImplementation]] = [
            ColorAdjustmentFilters.all, ColorEffectFilters.all, GeneratorFilters.all, CompositeFilters.all,
            BlurFilters.all, GeometryFilters.all, DistortionFilters.all, ReductionFilters.all, BarcodeFilters.all,
            BlurEffectFilters.all, ConvolutionFilters.all, MorphologyFilters.all, SharpenFilters.all,
            GradientFilters.all, ShapeGenerators.all, LightFilters.all, MeshGenerator.all, TileFilters.all,
            GeometryFilters.cameraFilters, TransitionFilters.all, StylizeFilters.all, HalftoneFilters.all,
            TextGenerators.all, VideoFilters.all,
        ]
        for family in families {
            all.merge(family) { _, _ in fatalError("a filter is registered twice") }
        }
        return all
    }()

    public static func implementation(for name: String) -> FilterImplementation? {
        builtInImplementations[name] ?? registered.implementation(for: name)
    }

    public static var implementedNames: [String] {
        (Array(builtInImplementations.keys) + registered.names).sorted()
    }

    /// Adds a filter at run time: its catalogue entry (see `FilterDescriptor(json:)`) and the function that makes
    /// its output from its inputs. From then on `Filter(named:)`, `Catalog.builtIn` (so `list`, `info` and the
    /// explorer) and the catalogue-wide checks know it. A name already in the catalogue is refused.
    public static func register(descriptor: FilterDescriptor, implementation: @escaping FilterImplementation) throws {
        try registered.add(descriptor, implementation)
    }

    /// The embedded catalogue plus the registered filters (what `Catalog.builtIn` returns).
    static var catalog: Catalog { registered.catalog }

    private static let registered = RegisteredFilters()

    /// The filters registered at run time, behind a lock: registration may happen on any thread.
    private final class RegisteredFilters: @unchecked Sendable {
        private let lock = NSLock()
        private var implementations: [String: FilterImplementation] = [:]
        private var current: Catalog?

        var catalog: Catalog {
            lock.lock(); defer { lock.unlock() }
            if let current { return current }
            current = .embedded
            return current!
        }

        var names: [String] {
            lock.lock(); defer { lock.unlock() }
            return Array(implementations.keys)
        }

        func implementation(for name: String) -> FilterImplementation? {
            lock.lock(); defer { lock.unlock() }
            return implementations[name]
        }

        func add(_ descriptor: FilterDescriptor, _ implementation: @escaping FilterImplementation) throws {
            let base = catalog
            lock.lock(); defer { lock.unlock() }
            let catalog = current ?? base
            guard catalog.filter(named: descriptor.name) == nil else {
                throw FilterError("\(descriptor.name) is already in the catalogue: a registered filter needs a new name")
            }
            current = catalog.adding(descriptor)
            implementations[descriptor.name] = implementation
        }
    }

    /// Catalogue filters not written yet: the catalogue-wide tests accept exactly these as missing, and the
    /// explorer shows them as "not implemented yet". This list only ever shrinks.
    public static let notYetImplemented: Set<String> = []
}
