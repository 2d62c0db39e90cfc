/// Finds each filter's implementation by its Core Image name. Each family contributes its table.
public enum FilterRegistry {
    static let implementations: [String: FilterImplementation] = {
        var all: [String: FilterImplementation] = [:]
        let families: [[String: FilterImplementation]] = [
            ColorAdjustmentFilters.all, ColorEffectFilters.all, GeneratorFilters.all, CompositeFilters.all,
            BlurFilters.all, GeometryFilters.all, DistortionFilters.all, ReductionFilters.all,
        ]
        for family in families {
            all.merge(family) { _, _ in fatalError("a filter is registered twice") }
        }
        return all
    }()

    public static func implementation(for name: String) -> FilterImplementation? { implementations[name] }
    public static var implementedNames: [String] { implementations.keys.sorted() }
}
