import ArgumentParser
import FilterEngine
import FilterPipeline

public struct InfoCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show everything known about one filter.",
        discussion: """
            <name> is a Core Image name in any case, with or without the CI prefix ("sepiatone" is CISepiaTone), or \
            a display name ("Sepia Tone"). An unknown name fails with close suggestions.

            JSON fields:
            \(Listing.jsonFieldsHelp)
            """)

    @Argument(help: ArgumentHelp("The filter's name.", valueName: "name"))
    var name: String

    @Flag(help: "Print JSON (its fields are listed above).")
    var json = false

    @OptionGroup var catalog: CatalogOptions

    public func run() throws {
        let list = try catalog.filtersList()
        let text = json ? try Listing.infoJSON(name, in: list) : try Listing.info(name, in: list, style: outputStyle())
        print(text, terminator: "")
    }
}
