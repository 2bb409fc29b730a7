import Foundation
import PackagePlugin

/// Embeds the package's `Resources/` files that a target ships as Swift string constants.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let resources = context.package.directoryURL.appending(path: "Resources")
        let inputs = ["openapi.yaml"].map { resources.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.map(\.lastPathComponent).joined(separator: ", "))",
                executable: try context.tool(named: "embed-resources").url,
                arguments: [output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
