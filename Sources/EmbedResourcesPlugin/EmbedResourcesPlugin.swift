import Foundation
import PackagePlugin

/// Embeds the package's `Resources/` files that a target ships as Swift string constants; for the
/// commands, the commit they are built from (`photopick --version`).
///
/// Both commands are POSIX shell run by `/bin/sh`, not a tool built from the package: SwiftPM builds a
/// package's tool anew for `swift test` after `swift build` and back (they plan with different
/// parameters), relinking it twice and rerunning every command that uses it, which cost each switch
/// between the two 6 to 8 s. A system executable never changes, so nothing runs again.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        if target.name == "PhotoPickCommands" { return [try commitCommand(context)] }
        let resources = context.package.directoryURL.appending(path: "Resources")
        let inputs = ["openapi.yaml"].map { resources.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        // Each input as its identifier (`openapi.yaml` becomes `openapiYAML`) and its path.
        let pairs = inputs.flatMap { [Self.identifier(for: $0.lastPathComponent), $0.path(percentEncoded: false)] }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.map(\.lastPathComponent).joined(separator: ", "))",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.embedScript, "embed-resources", output.path(percentEncoded: false)] + pairs,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// Reads the checkout's `HEAD` and the branch file it names, rebuilt when either changes (a commit,
    /// a checkout); without a checkout (a source archive) the commit is "unknown".
    private func commitCommand(_ context: PluginContext) throws -> Command {
        let package = context.package.directoryURL
        var git = package.appending(path: ".git")
        // A worktree's or a submodule's .git is a file naming the real folder, perhaps relative to it.
        if let pointer = try? String(contentsOf: git, encoding: .utf8), pointer.hasPrefix("gitdir: ") {
            let named = String(pointer.dropFirst(8)).trimmingCharacters(in: .whitespacesAndNewlines)
            git = named.hasPrefix("/") ? URL(fileURLWithPath: named) : package.appending(path: named)
        }
        // A linked worktree keeps its HEAD and reads branches from the folder its `commondir` names.
        var common = git
        if let named = (try? String(contentsOf: git.appending(path: "commondir"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines), !named.isEmpty {
            common = named.hasPrefix("/") ? URL(fileURLWithPath: named) : git.appending(path: named)
        }
        let head = git.appending(path: "HEAD")
        var inputs = FileManager.default.fileExists(atPath: head.path(percentEncoded: false)) ? [head] : []
        if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
            let ref = text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
            for candidate in [common.appending(path: ref), common.appending(path: "packed-refs")]
            where FileManager.default.fileExists(atPath: candidate.path(percentEncoded: false)) {
                inputs.append(candidate)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        return .buildCommand(
            displayName: "Stamping the commit",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", Self.commitScript, "stamp-commit", output.path(percentEncoded: false), git.path(percentEncoded: false),
                        common.path(percentEncoded: false)],
            inputFiles: inputs,
            outputFiles: [output]
        )
    }

    static func identifier(for fileName: String) -> String {
        let parts = fileName.split(separator: ".")
        let stem = parts.dropLast().joined().filter { $0.isLetter || $0.isNumber }
        return stem + (parts.last.map { $0.uppercased() } ?? "")
    }

    /// Writes the file in `$1` from the temporary `$1.new` unless it already holds the same: SwiftPM runs
    /// these commands on every build, and a file rewritten unchanged made every build recompile its
    /// target and relink everything above it.
    private static let replaceIfChanged = #"""
        if cmp -s "$out.new" "$out"; then rm -f "$out.new"; else mv -f "$out.new" "$out"; fi
        """#

    /// `embed-resources OUTPUT NAME PATH [NAME PATH]...`: `enum EmbeddedResources` with one static
    /// String per file, each in a raw string literal with one `#` more than the longest run in the file,
    /// so any content survives verbatim.
    static let embedScript = #"""
        set -eu
        export LC_ALL=C
        out=$1; shift
        {
            printf '// Generated by the EmbedResources plugin from Resources/. Do not edit.\n\nenum EmbeddedResources {\n'
            while [ $# -ge 2 ]; do
                hashes="$(tr -cs '#' '\n' < "$2" | sort | tail -n 1)#"
                printf '    static let %s: String = %s"""\n' "$1" "$hashes"
                cat "$2"
                printf '\n"""%s\n' "$hashes"
                shift 2
            done
            printf '}\n'
        } > "$out.new"
        """# + "\n" + replaceIfChanged

    /// `stamp-commit OUTPUT GITDIR COMMONDIR`: `enum BuildCommit` with the first 12 digits of the commit
    /// GITDIR's HEAD names (through COMMONDIR's branch file or `packed-refs`), or "unknown".
    static let commitScript = #"""
        set -u
        export LC_ALL=C
        out=$1; git=$2; common=$3
        commit=$(cat "$git/HEAD" 2>/dev/null) || commit=
        case $commit in
        "ref: "*)
            ref=${commit#ref: }
            commit=$(cat "$common/$ref" 2>/dev/null) || {
                commit=
                [ -f "$common/packed-refs" ] && while read -r sha name; do
                    if [ "$name" = "$ref" ]; then commit=$sha; break; fi
                done < "$common/packed-refs"
            }
            ;;
        esac
        case $commit in
        *[!0-9a-f]* | "") id=unknown ;;
        *) if [ ${#commit} -ge 12 ]; then id=$(printf '%.12s' "$commit"); else id=unknown; fi ;;
        esac
        printf '// Generated by the EmbedResources plugin from the checkout'"'"'s HEAD. Do not edit.\n\nenum BuildCommit {\n    static let id = "%s"\n}\n' "$id" > "$out.new"
        """# + "\n" + replaceIfChanged
}
