import Foundation

// generate-filter-builtins filters.json Output.swift
//
// Writes the typed filters of the CoreImage module, as Apple's CIFilterBuiltins declares them: one class-bound
// protocol per filter (`CISepiaTone`) with typed properties (`intensity: Float`, `center: CGPoint` ...), the
// shared protocols Apple uses for filter families (`CICompositeOperation`, `CITransitionFilter` ...), and a
// factory per filter (`CIFilter.sepiaTone()`). Names and types follow Apple's rules: the key without `input`,
// lower camel case (`inputRVector` → `rVector`), numbers as Float, points as CGPoint, rectangles as CGRect,
// other vectors as CIVector; the few inputs Apple names or types otherwise are listed below.

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: generate-filter-builtins filters.json Output.swift\n".utf8))
    exit(2)
}

struct Input {
    let key: String
    let valueClass: String
    let type: String?
    let description: String
}

struct FilterEntry {
    let name: String
    let categories: [String]
    let description: String
    let inputs: [Input]
}

let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[1]))) as! [String: Any]
let filters: [FilterEntry] = (root["filters"] as! [[String: Any]]).map { f in
    FilterEntry(
        name: f["name"] as! String,
        categories: f["categories"] as? [String] ?? [],
        description: f["description"] as? String ?? "",
        inputs: (f["inputs"] as? [[String: Any]] ?? []).map { i in
            Input(key: i["key"] as! String, valueClass: i["class"] as! String, type: i["type"] as? String,
                  description: i["description"] as? String ?? "")
        })
}.sorted { $0.name < $1.name }

// MARK: Apple's exceptions to the rules

/// Filters whose Core Image name ends in "Filter", which Apple's builtin name drops.
let droppedFilterSuffix: Set<String> = ["CIEdgePreserveUpsampleFilter", "CICoreMLModelFilter", "CIHistogramDisplayFilter"]
/// Builtin names that Apple spells otherwise than the lower-camel rule.
let factoryNameExceptions = ["CISRGBToneCurveToLinear": "sRGBToneCurveToLinear"]
/// Property names that are not the key without `input`.
let propertyNameExceptions = [
    "CICMYKHalftone.inputGCR": "grayComponentReplacement",
    "CICMYKHalftone.inputUCR": "underColorRemoval",
    "CIKMeans.inputMeans": "inputMeans",
    "CIBicubicScaleTransform.inputB": "parameterB",
    "CIBicubicScaleTransform.inputC": "parameterC",
]
/// Number inputs that Apple types as an integer rather than Float.
let integerInputs: Set<String> = [
    "CIKaleidoscope.inputCount", "CIAreaHistogram.inputCount", "CIAreaLogarithmicHistogram.inputCount",
    "CIKMeans.inputCount", "CICannyEdgeDetector.inputHysteresisPasses",
]
let unsignedInputs: Set<String> = ["CIPersonSegmentation.inputQualityLevel"]
/// Boolean inputs that Apple types as Float (the barcode generators' flags).
let booleanAsFloat: Set<String> = [
    "CIAztecCodeGenerator.inputCompactStyle", "CIPDF417BarcodeGenerator.inputCompactStyle",
    "CIPDF417BarcodeGenerator.inputAlwaysSpecifyCompaction",
]
/// Two-number vectors that Apple keeps as CIVector (a temperature and a tint, not a point).
let vectorNotPoint: Set<String> = ["CITemperatureAndTint.inputNeutral", "CITemperatureAndTint.inputTargetNeutral"]

// MARK: Families: the protocols Apple shares between filters

struct Family {
    let name: String
    let keys: [String]
    /// Apple declares no protocol of each member's own (the builtin returns `CIFilter & Family`) unless the
    /// member has inputs beyond the family's.
    let sharedOnly: Bool
    let contains: (FilterEntry) -> Bool
}

func has(_ f: FilterEntry, _ keys: [String]) -> Bool { keys.allSatisfy { k in f.inputs.contains { $0.key == k } } }

let families: [Family] = [
    Family(name: "CITransitionFilter", keys: ["inputImage", "inputTargetImage", "inputTime"], sharedOnly: false) {
        $0.categories.contains("CICategoryTransition") && has($0, ["inputImage", "inputTargetImage", "inputTime"])
    },
    Family(name: "CICompositeOperation", keys: ["inputImage", "inputBackgroundImage"], sharedOnly: true) {
        $0.categories.contains("CICategoryCompositeOperation") && $0.inputs.map(\.key) == ["inputImage", "inputBackgroundImage"]
    },
    Family(name: "CIPhotoEffect", keys: ["inputImage", "inputExtrapolate"], sharedOnly: true) {
        $0.name.hasPrefix("CIPhotoEffect") && has($0, ["inputImage", "inputExtrapolate"])
    },
    Family(name: "CIBlendWithMask", keys: ["inputImage", "inputBackgroundImage", "inputMaskImage"], sharedOnly: true) {
        $0.name.hasPrefix("CIBlendWith") && $0.name.hasSuffix("Mask")
    },
    Family(name: "CIConvolution", keys: ["inputImage", "inputWeights", "inputBias"], sharedOnly: true) {
        $0.name.hasPrefix("CIConvolution") && has($0, ["inputImage", "inputWeights", "inputBias"])
    },
    Family(name: "CIConvertLab", keys: ["inputImage", "inputNormalize"], sharedOnly: true) {
        ["CIConvertLabToRGB", "CIConvertRGBtoLab"].contains($0.name)
    },
    Family(name: "CIFourCoordinateGeometryFilter",
           keys: ["inputImage", "inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"], sharedOnly: false) {
        ["CIPerspectiveTransform", "CIPerspectiveTransformWithExtent", "CIPerspectiveCorrection",
         "CIKeystoneCorrectionCombined", "CIKeystoneCorrectionHorizontal", "CIKeystoneCorrectionVertical"].contains($0.name)
    },
    Family(name: "CIAreaReductionFilter", keys: ["inputImage", "inputExtent"], sharedOnly: false) {
        $0.categories.contains("CICategoryReduction") && has($0, ["inputImage", "inputExtent"])
    },
]

// MARK: Names and types

/// Lower camel case as Swift imports Objective-C names: a leading run of capitals is lowered, except its last
/// letter when a lower-case letter follows (`RVector` → `rVector`, `EV` → `ev`, `QRCode` → `qrCode`).
func lowerCamel(_ s: String) -> String {
    let chars = Array(s)
    var run = 0
    while run < chars.count, chars[run].isUppercase { run += 1 }
    if run == 0 { return s }
    if run == chars.count { return s.lowercased() }
    let lowered = chars[run].isLowercase && run > 1 ? run - 1 : run
    return String(chars[..<lowered]).lowercased() + String(chars[lowered...])
}

func baseName(_ filter: String) -> String {
    droppedFilterSuffix.contains(filter) ? String(filter.dropLast("Filter".count)) : filter
}

/// The typed factory's name: the filter's name without `CI` in lower camel case. Filters registered without
/// the prefix (custom ones) keep their whole name.
func factoryName(_ filter: String) -> String {
    if let name = factoryNameExceptions[filter] { return name }
    let base = baseName(filter)
    return lowerCamel(base.hasPrefix("CI") ? String(base.dropFirst(2)) : base)
}

let swiftKeywords: Set<String> = ["default", "repeat", "in", "is", "as", "self", "Type", "protocol", "extension", "operator"]

func propertyName(_ filter: String, _ key: String) -> String {
    if let name = propertyNameExceptions["\(filter).\(key)"] { return name }
    if key == "inputImage" { return key }
    let name = lowerCamel(key.hasPrefix("input") ? String(key.dropFirst(5)) : key)
    return swiftKeywords.contains(name) ? "`\(name)`" : name
}

/// The Swift type of an input and the CIFilter accessor that reads it, or nil for classes that cannot exist
/// here (Core ML models, camera calibration, image metadata).
func swiftType(_ filter: String, _ input: Input) -> (type: String, getter: String)? {
    let id = "\(filter).\(input.key)"
    switch input.valueClass {
    case "CIImage": return ("CIImage?", "_imageValue")
    case "NSNumber":
        if integerInputs.contains(id) { return ("Int", "_intValue") }
        if unsignedInputs.contains(id) { return ("UInt", "_uintValue") }
        if input.type == "CIAttributeTypeBoolean" && !booleanAsFloat.contains(id) { return ("Bool", "_boolValue") }
        return ("Float", "_floatValue")
    case "CIVector":
        if vectorNotPoint.contains(id) { return ("CIVector", "_vectorValue") }
        switch input.type {
        case "CIAttributeTypePosition", "CIAttributeTypeOffset": return ("CGPoint", "_pointValue")
        case "CIAttributeTypeRectangle": return ("CGRect", "_rectValue")
        default: return ("CIVector", "_vectorValue")
        }
    case "CIColor": return ("CIColor", "_colorValue")
    case "NSData": return ("Data", "_dataValue")
    case "NSString": return ("String", "_stringValue")
    case "NSAttributedString": return ("NSAttributedString", "_attributedStringValue")
    case "NSAffineTransform": return ("CGAffineTransform", "_transformValue")
    case "NSObject": return ("CGColorSpace?", "_colorSpaceValue")
    case "NSArray": return ("[Any]", "_arrayValue")
    case "CIBarcodeDescriptor": return ("CIBarcodeDescriptor", "_barcodeDescriptorValue")
    default: return nil
    }
}

func docLines(_ text: String, indent: String) -> String {
    text.isEmpty ? "" : "\(indent)/// \(text.replacingOccurrences(of: "\n", with: " "))\n"
}

// MARK: Output

var out = """
// Generated from filters.json by the GenerateFilterBuiltins plugin (Sources/generate-filter-builtins). Do not edit.
import Foundation


"""

@MainActor func emitProtocol(name: String, refines: String, doc: String, filter: String, inputs: [Input]) {
    out += docLines(doc, indent: "")
    out += "public protocol \(name): \(refines) {\n"
    var accessors = ""
    for input in inputs {
        let property = propertyName(filter, input.key)
        guard let (type, getter) = swiftType(filter, input) else {
            out += "    // \(input.key) (\(input.valueClass)) has no type here: set it by key.\n"
            continue
        }
        out += docLines(input.description, indent: "    ")
        out += "    var \(property): \(type) { get set }\n"
        accessors += "    var \(property): \(type) {\n"
        accessors += "        get { \(getter)(\"\(input.key)\") }\n"
        accessors += "        set { setValue(newValue, forKey: \"\(input.key)\") }\n"
        accessors += "    }\n"
    }
    out += "}\n\n"
    // The filter's values live in CIFilter's store, as Core Image's key-value coding reaches them.
    out += "extension \(name) where Self: CIFilter {\n\(accessors)}\n\n"
}

var familyOf: [String: Family] = [:]
for filter in filters {
    if let family = families.first(where: { $0.contains(filter) }) { familyOf[filter.name] = family }
}

for family in families {
    guard let sample = filters.first(where: { familyOf[$0.name]?.name == family.name }) else { continue }
    let inputs = family.keys.compactMap { key in sample.inputs.first { $0.key == key } }
    emitProtocol(name: family.name, refines: "CIFilterProtocol", doc: "The inputs shared by a family of filters.",
                 filter: sample.name, inputs: inputs)
}

var factories = ""
var registry = ""
for filter in filters {
    let family = familyOf[filter.name]
    let extra = filter.inputs.filter { input in !(family?.keys.contains(input.key) ?? false) }
    let ownProtocol = family?.sharedOnly == true && extra.isEmpty ? nil : baseName(filter.name)
    if let ownProtocol {
        emitProtocol(name: ownProtocol, refines: family?.name ?? "CIFilterProtocol", doc: filter.description,
                     filter: filter.name, inputs: extra)
    }
    let conformance = ownProtocol ?? family!.name
    let className = "_BuiltinFilter_\(filter.name)"
    out += "final class \(className): CIFilter, \(conformance) {}\n\n"
    factories += docLines(filter.description, indent: "    ")
    factories += "    public class func \(factoryName(filter.name))() -> CIFilter & \(conformance) {\n"
    factories += "        \(className)(builtinName: \"\(filter.name)\")\n    }\n"
    registry += "    (\"\(filter.name)\", \"\(factoryName(filter.name))\", { CIFilter.\(factoryName(filter.name))() }),\n"
}

out += "extension CIFilter {\n\(factories)}\n\n"
out += "/// Every typed builtin by its Core Image name (for tests and tools).\n"
out += "let builtinFilterFactories: [(name: String, typedName: String, make: @Sendable () -> CIFilter)] = [\n\(registry)]\n"

try out.write(toFile: arguments[2], atomically: true, encoding: .utf8)
