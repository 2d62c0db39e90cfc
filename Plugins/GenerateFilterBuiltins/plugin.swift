import Foundation
import PackagePlugin

/// Generates the typed filters (`CIFilter.sepiaTone()`, the `CISepiaTone` protocol ...) of the CoreImage module
/// from the package's filters.json, so that they can never drift from the catalogue.
@main
struct GenerateFilterBuiltins: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let catalog = context.package.directoryURL.appending(path: "filters.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "CIFilterBuiltins.swift")
        return [
            .buildCommand(
                displayName: "Generating CIFilterBuiltins from filters.json",
                executable: try context.tool(named: "generate-filter-builtins").url,
                arguments: [catalog.path, output.path],
                inputFiles: [catalog],
                outputFiles: [output]
            )
        ]
    }
}
