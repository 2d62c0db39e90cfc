import ArgumentParser
import CommandLineTool

@main
struct CIFilterTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cifiltertest",
        abstract: CommandLineTool.abstract,
        version: CommandLineTool.version,
        subcommands: CommandLineTool.headlessCommands + [ExploreCommand.self],
        defaultSubcommand: ExploreCommand.self
    )

    static func main() { CommandLineTool.main(Self.self) }
}
