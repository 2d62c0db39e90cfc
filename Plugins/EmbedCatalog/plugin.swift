import Foundation
import PackagePlugin

/// Embeds the package's root filters.json into the target as a Swift source, rebuilt when the file changes.
@main
struct EmbedCatalog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let catalog = context.package.directoryURL.appending(path: "filters.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCatalog.swift")
        return [
            .buildCommand(
                displayName: "Embedding filters.json",
                executable: try context.tool(named: "embed-catalog").url,
                arguments: [catalog.path, output.path],
                inputFiles: [catalog],
                outputFiles: [output]
            )
        ]
    }
}
