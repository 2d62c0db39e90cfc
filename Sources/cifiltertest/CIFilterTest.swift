import ArgumentParser
import FilterEngine

@main
struct CIFilterTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cifiltertest",
        abstract: "Browse, tweak and render Core Image filters in the terminal.",
        subcommands: [ListCommand.self, InfoCommand.self, RenderCommand.self, BenchCommand.self, ExploreCommand.self],
        defaultSubcommand: ExploreCommand.self
    )
}
