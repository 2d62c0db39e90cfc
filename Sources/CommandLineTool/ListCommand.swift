import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation

/// `--catalog FILE`, shared by the commands that read the catalogue.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp("Read this catalogue file instead of the built-in filters.json.", valueName: "file"))
    var path: String?

    /// The filters list of `--catalog FILE`, or the built-in one. An invalid file throws its `CatalogError`.
    func filtersList() throws -> FiltersList {
        guard let path else { return .shared }
        return FiltersList(catalog: try Catalog(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// Bold headings only on a terminal that wants them; never when piped.
func outputStyle() -> ListingStyle {
    let environment = ProcessInfo.processInfo.environment
    guard isatty(STDOUT_FILENO) != 0, environment["NO_COLOR"] == nil, environment["TERM"] != "dumb" else {
        return .plain
    }
    return .terminal
}

public struct ListCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the filters by category, optionally with every input key.",
        discussion: """
            Each filter is listed once, under the first category (in the explorer's order) that holds it; \
            categories whose filters are all listed earlier are not shown unless --all-categories is given. \
            --category lists every filter of one category. Filters that cannot be made off Apple's systems are \
            marked "(unavailable: reason)".

            JSON fields:
            \(Listing.jsonFieldsHelp)
            """)

    @Flag(help: "Show each input: key, type, class, default, range (min/max) and slider range.")
    var keys = false

    @Flag(help: "List each filter under every category it belongs to, marking duplicates.")
    var allCategories = false

    @Option(help: ArgumentHelp(
        "List every filter of one category (Blur or CICategoryBlur, any case).", valueName: "name"))
    var category: String?

    @Flag(help: "Count the filters per fidelity status: verified (matches a real Apple render), formula (a documented formula), approximate (plausible, no evidence), unavailable (Apple-only).")
    var fidelity = false

    @Option(help: ArgumentHelp(
        "With --fidelity (implied): also list the filters of one status, with their evidence.", valueName: "status"))
    var status: String?

    @Flag(help: "Print JSON (its fields are listed above).")
    var json = false

    @OptionGroup var catalog: CatalogOptions

    public func run() throws {
        let list = try catalog.filtersList()
        if fidelity || status != nil {
            let chosen = try status.map(Listing.resolveFidelityStatus)
            let text = json ? Listing.fidelityJSON(list, status: chosen)
                : Listing.fidelityText(list, status: chosen, style: outputStyle())
            print(text, terminator: "")
            return
        }
        let options = ListingOptions(keys: keys, allCategories: allCategories, category: category)
        let text = json ? try Listing.json(list, options: options)
            : try Listing.text(list, options: options, style: outputStyle())
        print(text, terminator: "")
    }
}
