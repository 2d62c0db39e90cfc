import Foundation
internal import FilterEngine

/// What every filter gives: an output image (Apple's `CIFilterProtocol`). The typed filter protocols
/// (`CISepiaTone` ...) refine it; they are class-bound, so `let f = CIFilter.vignette(); f.intensity = 1` compiles.
public protocol CIFilterProtocol: AnyObject {
    var outputImage: CIImage? { get }
}

/// Makes the filters registered with `CIFilter.registerName(_:constructor:classAttributes:)`.
public protocol CIFilterConstructor {
    func filter(withName name: String) -> CIFilter?
}

/// A filter: made by name (`CIFilter(name: "CISepiaTone")`) or typed (`CIFilter.sepiaTone()`), its inputs
/// set by key, its output a lazy `CIImage`.
///
/// Linux specifics (Swift has no Objective-C runtime here):
/// - `@objc` does not compile on Linux: subclasses declare inputs as plain `var inputImage: CIImage?`.
/// - Key-value coding is emulated: `setValue(_:forKey:)` and `value(forKey:)` on a subclass reach a stored
///   property of that name (of type CIImage, CIVector, CIColor, NSNumber, Float, Double, CGFloat, Int, Bool,
///   String, Data, CGPoint, CGRect, CGAffineTransform, optional or not), writing it directly: its `didSet`
///   observers do not run, and computed properties cannot be reached. Other keys are kept in the filter.
/// - `CIFilter(name:)` is declared in a protocol extension (`_CIFilterConstructibleByName`), the one place Swift
///   lets an initialiser return another object: it returns the typed built-in (so
///   `CIFilter(name: "CISepiaTone") as? CISepiaTone` works) or the registered constructor's filter.
open class CIFilter: NSObject, NSCopying, NSCoding, _CIFilterConstructibleByName {
    /// The catalogue entry of a built-in filter; nil for subclasses.
    let descriptor: FilterDescriptor?
    /// Input values as Core Image hands them out (NSNumber, CIVector, CIColor, CIImage, Data, String ...).
    /// Behind a lock: Core Image filters are not thread-safe, but a value set on one thread while another renders
    /// the output must not corrupt the dictionary (each access sees a whole dictionary, before or after).
    var values: [String: Any] {
        get { valuesLock.withLock { storedValues } }
        set { valuesLock.withLock { storedValues = newValue } }
    }
    private var storedValues: [String: Any] = [:]
    private let valuesLock = NSLock()
    private var assignedName: String?

    // MARK: Making filters

    /// For subclasses.
    public override init() {
        descriptor = nil
        super.init()
    }

    /// A built-in filter with its inputs at their defaults.
    init(builtinName: String) {
        descriptor = Catalog.builtIn.filter(named: builtinName)
        super.init()
        setDefaults()
    }

    /// The filter of that name: the typed built-in (inputs at their defaults, as Core Image on iOS does; on
    /// macOS they start unset) or the filter a registered constructor makes; nil for an unknown name.
    static func makeFilter(named name: String) -> CIFilter? {
        if let make = builtinFactories[name] { return make() }
        if Catalog.builtIn.filter(named: name) != nil { return CIFilter(builtinName: name) }
        guard let made = registry.make(name) else { return nil }
        made.assignedName = name
        return made
    }

    static let builtinFactories: [String: @Sendable () -> CIFilter] =
        Dictionary(builtinFilterFactories.map { ($0.name, $0.make) }) { first, _ in first }

    public required init?(coder: NSCoder) {
        let name = coder.decodeObject(forKey: "CIFilterName") as? String
        descriptor = name.flatMap { Catalog.builtIn.filter(named: $0) }
        super.init()
        setDefaults()
    }

    open func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "CIFilterName")
    }

    /// A copy of a built-in filter with the same values. A subclass instance is returned as it is: a new instance
    /// of an arbitrary subclass cannot be made here (Core Image copies it through the Objective-C runtime).
    open func copy(with zone: NSZone? = nil) -> Any {
        guard let descriptor, let copy = CIFilter.makeFilter(named: descriptor.name) else { return self }
        copy.values = values
        copy.assignedName = assignedName
        return copy
    }

    // MARK: Identity and metadata

    /// The filter's name: the Core Image name of a built-in, the registered name, or else the class name.
    open var name: String {
        get { assignedName ?? descriptor?.name ?? String(describing: type(of: self)) }
        set { assignedName = newValue }
    }

    open var inputKeys: [String] {
        if let descriptor { return descriptor.inputKeys }
        return StoredProperties.names(of: self).filter { $0.hasPrefix("input") }
    }

    open var outputKeys: [String] { [kCIOutputImageKey] }

    /// The filter's attributes, as Core Image's dictionary: kCIAttributeFilterName, kCIAttributeFilterDisplayName,
    /// kCIAttributeFilterCategories ..., and one dictionary per input (kCIAttributeClass, kCIAttributeType,
    /// kCIAttributeDefault, kCIAttributeMin/Max, kCIAttributeSliderMin/Max, kCIAttributeIdentity ...).
    open var attributes: [String: Any] {
        guard let descriptor else {
            var attributes: [String: Any] = [kCIAttributeFilterName: name, kCIAttributeFilterDisplayName: name,
                                             kCIAttributeFilterCategories: [String]()]
            attributes.merge(CIFilter.registry.classAttributes(name)) { _, new in new }
            for key in inputKeys {
                var input: [String: Any] = [kCIAttributeName: key, kCIAttributeDisplayName: key]
                if let value = value(forKey: key) { input[kCIAttributeClass] = String(describing: type(of: value)) }
                attributes[key] = input
            }
            return attributes
        }
        return CIFilter.attributes(of: descriptor)
    }

    static func attributes(of descriptor: FilterDescriptor) -> [String: Any] {
        var attributes: [String: Any] = [
            kCIAttributeFilterName: descriptor.name,
            kCIAttributeFilterDisplayName: descriptor.displayName,
            kCIAttributeDescription: descriptor.description,
            kCIAttributeFilterCategories: descriptor.categories,
        ]
        if let mac = descriptor.availableMac { attributes[kCIAttributeFilterAvailable_Mac] = mac }
        if let ios = descriptor.availableIOS { attributes[kCIAttributeFilterAvailable_iOS] = ios }
        for input in descriptor.inputs {
            var entry: [String: Any] = [
                kCIAttributeName: input.key,
                kCIAttributeClass: input.valueClass.rawValue,
                kCIAttributeDisplayName: input.displayName,
                kCIAttributeDescription: input.description,
            ]
            if let type = input.type { entry[kCIAttributeType] = type.rawValue }
            if let value = input.defaultValue.flatMap({ FilterValues.appleValue($0, for: input) }) { entry[kCIAttributeDefault] = value }
            if let value = input.identity.flatMap({ FilterValues.appleValue($0, for: input) }) { entry[kCIAttributeIdentity] = value }
            if let v = input.minimum { entry[kCIAttributeMin] = NSNumber(value: v) }
            if let v = input.maximum { entry[kCIAttributeMax] = NSNumber(value: v) }
            if let v = input.sliderMinimum { entry[kCIAttributeSliderMin] = NSNumber(value: v) }
            if let v = input.sliderMaximum { entry[kCIAttributeSliderMax] = NSNumber(value: v) }
            attributes[input.key] = entry
        }
        return attributes
    }

    // MARK: Values

    /// Every input back to its default (inputs without one, such as images, are left as they are).
    open func setDefaults() {
        guard let descriptor else { return }
        for input in descriptor.inputs {
            if let value = input.defaultValue.flatMap({ FilterValues.appleValue($0, for: input) }) {
                values[input.key] = value
            } else if !input.isImage {
                values[input.key] = nil
            }
        }
    }

    /// Sets an input (nil clears it). Numbers of any Swift or Foundation type, CGFloat, Bool, CGPoint, CGRect,
    /// CIVector, CIColor, CIImage, Data, String, NSAttributedString, CGColorSpace and CGAffineTransform are
    /// taken where Core Image takes them. Values outside an input's slider or legal range are kept, as in Core
    /// Image. A key the filter does not have is reported on standard error (Core Image raises an exception).
    open func setValue(_ value: Any?, forKey key: String) {
        if let descriptor {
            guard let input = descriptor.input(key) else {
                LibraryWarnings.report("\(descriptor.name) has no input \(key); its inputs are \(descriptor.inputKeys.joined(separator: ", "))")
                return
            }
            if let value, FilterValues.engineValue(value, for: input) == nil {
                LibraryWarnings.report("\(descriptor.name).\(key) takes \(input.valueClass.rawValue), not \(type(of: value))")
            }
            values[key] = value
            return
        }
        if !StoredProperties.set(value, forKey: key, of: self) { values[key] = value }
    }

    /// An input's value, or `outputImage` for kCIOutputImageKey.
    open func value(forKey key: String) -> Any? {
        if key == kCIOutputImageKey { return outputImage }
        if descriptor == nil, let stored = StoredProperties.value(forKey: key, of: self) { return stored }
        return values[key]
    }

    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value, forKey: key) }
    }

    /// Key-value coding by path, as on any NSObject: `"inputRadius"` is `setValue(_:forKey:)`, and a longer path
    /// walks through the values it names (a filter held as an input, then its key).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.firstIndex(of: ".") else { return setValue(value, forKey: keyPath) }
        let head = String(keyPath[..<dot])
        guard let inner = self.value(forKey: head) as? CIFilter else {
            LibraryWarnings.report("\(name): setValue(_:forKeyPath: \"\(keyPath)\"): \(head) holds no filter to set a value on")
            return
        }
        inner.setValue(value, forKeyPath: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// The value at the end of a key path: through filters (their keys), dictionaries such as `attributes`
    /// (`"attributes.inputRadius.CIAttributeDefault"`), images (`extent`) and vectors (`x` … `w`, `count`).
    open func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            switch current {
            case let filter as CIFilter: current = key == "attributes" ? filter.attributes : filter.value(forKey: key)
            case let dictionary as [String: Any]: current = dictionary[key]
            case let image as CIImage: current = key == "extent" ? image.extent : key == "properties" ? image.properties : nil
            case let vector as CIVector:
                current = switch key {
                case "x": vector.x
                case "y": vector.y
                case "z": vector.z
                case "w": vector.w
                case "count": vector.count
                default: nil
                }
            default: current = nil
            }
            if current == nil { return nil }
        }
        return current
    }

    // MARK: Output

    /// The filtered image: a recipe, computed only when a CIContext renders it. Nil when an input is missing
    /// or cannot be used (the reason is printed once on standard error). Subclasses override it.
    open var outputImage: CIImage? {
        guard let descriptor else { return nil }
        do {
            return CIImage(engine: try makeBuiltinOutput(descriptor))
        } catch {
            LibraryWarnings.report("\(descriptor.name): \(error)")
            return nil
        }
    }

    private func makeBuiltinOutput(_ descriptor: FilterDescriptor) throws -> EngineImage {
        let filter = try EngineFilter(named: descriptor.name)
        let values = self.values
        for input in descriptor.inputs {
            guard let value = values[input.key] else {
                try filter.setValue(nil, forKey: input.key)
                continue
            }
            guard let converted = FilterValues.engineValue(value, for: input) else {
                throw FilterError("\(input.key) takes \(input.valueClass.rawValue), not \(type(of: value))")
            }
            // The engine takes every finite number, as Core Image does.
            try filter.setValue(converted, forKey: input.key)
        }
        return try filter.makeOutputImage()
    }

    open override var description: String { "<CIFilter \(name)>" }

    // MARK: Typed access (used by the generated builtins)

    func _imageValue(_ key: String) -> CIImage? { value(forKey: key) as? CIImage }
    func _floatValue(_ key: String) -> Float { Float(FilterValues.number(value(forKey: key)) ?? 0) }
    func _boolValue(_ key: String) -> Bool { (FilterValues.number(value(forKey: key)) ?? 0) != 0 }
    func _intValue(_ key: String) -> Int {
        let n = FilterValues.number(value(forKey: key)) ?? 0
        return n.isFinite && abs(n) < 1e15 ? Int(n.rounded()) : 0
    }
    func _uintValue(_ key: String) -> UInt { UInt(max(0, _intValue(key))) }
    func _vectorValue(_ key: String) -> CIVector {
        switch value(forKey: key) {
        case let v as CIVector: v
        case let other: CIVector(values: (FilterValues.numbers(other) ?? []).map { CGFloat($0) })
        }
    }
    func _pointValue(_ key: String) -> CGPoint { _vectorValue(key).cgPointValue }
    func _rectValue(_ key: String) -> CGRect { _vectorValue(key).cgRectValue }
    func _colorValue(_ key: String) -> CIColor {
        switch value(forKey: key) {
        case let c as CIColor: c
        case let other:
            (FilterValues.numbers(other)).map { v in
                CIColor(red: CGFloat(v.count > 0 ? v[0] : 0), green: CGFloat(v.count > 1 ? v[1] : 0),
                        blue: CGFloat(v.count > 2 ? v[2] : 0), alpha: CGFloat(v.count > 3 ? v[3] : 1))
            } ?? .black
        }
    }
    func _dataValue(_ key: String) -> Data {
        switch value(forKey: key) {
        case let d as Data: d
        case let s as String: Data(s.utf8)
        default: Data()
        }
    }
    func _stringValue(_ key: String) -> String {
        switch value(forKey: key) {
        case let s as String: s
        case let a as NSAttributedString: a.string
        default: ""
        }
    }
    func _attributedStringValue(_ key: String) -> NSAttributedString {
        switch value(forKey: key) {
        case let a as NSAttributedString: a
        case let s as String: NSAttributedString(string: s)
        default: NSAttributedString(string: "")
        }
    }
    func _transformValue(_ key: String) -> CGAffineTransform {
        switch value(forKey: key) {
        case let t as CGAffineTransform: t
        case let other: FilterValues.numbers(other).flatMap {
            $0.count == 6 ? CGAffineTransform(CGFloat($0[0]), CGFloat($0[1]), CGFloat($0[2]), CGFloat($0[3]), CGFloat($0[4]), CGFloat($0[5])) : nil
        } ?? .identity
        }
    }
    func _colorSpaceValue(_ key: String) -> CGColorSpace? { value(forKey: key) as? CGColorSpace }
    func _arrayValue(_ key: String) -> [Any] { value(forKey: key) as? [Any] ?? [] }

    // MARK: Registry

    /// Every built-in and registered filter name in the category (all of them for nil), sorted.
    open class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// The names of the filters that belong to every one of `categories` (all filters for nil or empty).
    open class func filterNames(inCategories categories: [String]?) -> [String] {
        let wanted = categories ?? []
        let builtIn = Catalog.builtIn.filters
            .filter { f in wanted.allSatisfy { f.categories.contains($0) } }
            .map(\.name)
        let custom = registry.names().filter { name in
            let theirs = registry.classAttributes(name)[kCIAttributeFilterCategories] as? [String] ?? []
            return wanted.allSatisfy { theirs.contains($0) }
        }
        return (builtIn + custom).sorted()
    }

    open class func localizedName(forFilterName filterName: String) -> String? {
        if let descriptor = Catalog.builtIn.filter(named: filterName) { return descriptor.displayName }
        return registry.classAttributes(filterName)[kCIAttributeFilterDisplayName] as? String
    }

    open class func localizedName(forCategory category: String) -> String {
        Catalog.builtIn.categories.first { $0.name == category }?.displayName ?? category
    }

    open class func localizedDescription(forFilterName filterName: String) -> String? {
        Catalog.builtIn.filter(named: filterName)?.description
            ?? registry.classAttributes(filterName)[kCIAttributeDescription] as? String
    }

    open class func localizedReferenceDocumentation(forFilterName filterName: String) -> URL? { nil }

    /// Publishes a filter under `name`: `CIFilter(name:)` then asks `constructor` for it, and
    /// `filterNames(inCategory:)` lists it under the categories of `classAttributes[kCIAttributeFilterCategories]`.
    open class func registerName(_ name: String, constructor anObject: CIFilterConstructor,
                                 classAttributes attributes: [String: Any] = [:]) {
        registry.register(name, anObject, attributes)
    }

    static let registry = Registry()

    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: (constructor: CIFilterConstructor, attributes: [String: Any])] = [:]

        func register(_ name: String, _ constructor: CIFilterConstructor, _ attributes: [String: Any]) {
            lock.lock(); defer { lock.unlock() }
            entries[name] = (constructor, attributes)
        }

        func make(_ name: String) -> CIFilter? {
            lock.lock()
            let constructor = entries[name]?.constructor
            lock.unlock()
            return constructor?.filter(withName: name)
        }

        func classAttributes(_ name: String) -> [String: Any] {
            lock.lock(); defer { lock.unlock() }
            return entries[name]?.attributes ?? [:]
        }

        func names() -> [String] {
            lock.lock(); defer { lock.unlock() }
            return Array(entries.keys)
        }
    }
}

/// Gives CIFilter its `init?(name:)` family. Swift lets only an initialiser declared in a protocol extension
/// return another object than a new instance of the class it is called on; these return the typed built-in
/// or the registered filter of that name (nil when the name is unknown or the filter is not of the class the
/// initialiser was called on).
public protocol _CIFilterConstructibleByName {}

extension _CIFilterConstructibleByName where Self: CIFilter {
    public init?(name: String) {
        guard let filter = CIFilter.makeFilter(named: name) as? Self else { return nil }
        self = filter
    }

    public init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    public init?(name: String, withInputParameters params: [String: Any]?) {
        self.init(name: name, parameters: params)
    }
}
