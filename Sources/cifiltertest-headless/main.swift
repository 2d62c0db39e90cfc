import ArgumentParser
import CommandLineTool

/// `cifiltertest` without the explorer: what a server without a terminal interface runs.
struct CIFilterTestHeadless: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cifiltertest",
        abstract: CommandLineTool.abstract + " (This build has no explorer.)",
        version: CommandLineTool.version,
        subcommands: CommandLineTool.headlessCommands
    )
}

CommandLineTool.main(CIFilterTestHeadless.self)
