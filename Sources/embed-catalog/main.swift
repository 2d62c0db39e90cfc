import Foundation

// embed-catalog IN OUT: writes OUT, a Swift file holding IN's text as `embeddedCatalogJSON`.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: embed-catalog filters.json Output.swift\n".utf8))
    exit(2)
}
let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
// A raw string needs a delimiter that never occurs in the text.
var hashes = "#"
while text.contains("\"" + hashes) { hashes += "#" }
let source = """
// Generated from filters.json by the EmbedCatalog plugin. Do not edit.
let embeddedCatalogJSON = \(hashes)\"\"\"
\(text)
\"\"\"\(hashes)

"""
try source.write(toFile: arguments[2], atomically: true, encoding: .utf8)
