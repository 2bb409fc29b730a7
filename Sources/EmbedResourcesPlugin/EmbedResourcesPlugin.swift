import Foundation
import PackagePlugin

/// Embeds the package's `Resources/` files that a target ships as Swift string constants; for the
/// commands, the commit they are built from (`photopick --version`).
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        if target.name == "PhotoPickCommands" { return [try commitCommand(context)] }
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

    /// Reads the checkout's `HEAD` and the branch file it names, rebuilt when either changes (a commit,
    /// a checkout); without a checkout (a source archive) the commit is "unknown".
    private func commitCommand(_ context: PluginContext) throws -> Command {
        var git = context.package.directoryURL.appending(path: ".git")
        // A worktree's .git is a file naming the real folder.
        if let pointer = try? String(contentsOf: git, encoding: .utf8), pointer.hasPrefix("gitdir: ") {
            git = URL(fileURLWithPath: String(pointer.dropFirst(8)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let head = git.appending(path: "HEAD")
        var inputs = FileManager.default.fileExists(atPath: head.path()) ? [head] : []
        if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
            let ref = text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
            for candidate in [git.appending(path: ref), git.appending(path: "packed-refs")] where FileManager.default.fileExists(atPath: candidate.path()) {
                inputs.append(candidate)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        return .buildCommand(
            displayName: "Stamping the commit",
            executable: try context.tool(named: "embed-resources").url,
            arguments: ["--commit", output.path(), git.path()],
            inputFiles: inputs,
            outputFiles: [output]
        )
    }
}
