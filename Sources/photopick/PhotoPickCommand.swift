import PhotoPickKit
import ArgumentParser
import Foundation

/// The photopick program: the browser by default, `photopick serve` for the embedded server alone.
@main
struct PhotoPickCommand: AsyncParsableCommand {
    static let version = PhotoPickVersion.current

    static let configuration = CommandConfiguration(
        commandName: "photopick",
        abstract: "A fast, keyboard-driven terminal browser for PhotoPick photo libraries.",
        version: version,
        subcommands: [BrowseCommand.self, ServeCommand.self],
        defaultSubcommand: BrowseCommand.self
    )

    /// Exit codes: 0 ok, 2 usage (argument-parser's default for that is 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
