import PhotoPickKit
import PhotoPickServer
import ArgumentParser
import Foundation

/// The photopick program: the browser by default, `photopick serve` for the embedded server alone.
public struct PhotoPickCommand: AsyncParsableCommand {
    /// A command as parsed; argument-parser makes it.
    public init() {}

    /// `0.1.0 (commit 3f2a9c1e0b7d)`: the version and the commit built, for bug reports.
    static let version = "\(PhotoPickVersion.current) (commit \(BuildCommit.id))"

    /// The verbs, the browser first.
    public static let configuration = CommandConfiguration(
        commandName: "photopick",
        abstract: "A fast, keyboard-driven terminal browser for PhotoPick photo libraries.",
        version: version,
        subcommands: [BrowseCommand.self, ListCommand.self, StatsCommand.self, GetCommand.self, SyncCommand.self, TagsCommand.self, TagCommand.self, PickCommand.self, EditCommand.self, RemoveCommand.self, ServeCommand.self, DoctorCommand.self],
        defaultSubcommand: BrowseCommand.self
    )

    /// The program: parses the arguments and runs the verb. Exit codes: 0 ok, 2 usage (argument-parser's
    /// default for that is 64), 1 when the server cannot start for reasons other than its options.
    public static func runAsProgram() async {
        var commandName: String?
        do {
            var command = try parseAsRoot()
            commandName = type(of: command).configuration.commandName
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as ServerError {
            // One line naming the problem and the fix, for every command that starts a server.
            let prefix = ["photopick", commandName].compactMap { $0 }.joined(separator: " ")
            FileHandle.standardError.write(Data("\(prefix): \(error)\n".utf8))
            Foundation.exit(error.isUsageError ? 2 : 1)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            // One line, as every other error: the problem, and where the options are listed.
            let verb = commandName ?? CommandLine.arguments.dropFirst().first { argument in
                configuration.subcommands.contains { $0.configuration.commandName == argument }
            }
            let command = ["photopick", verb].compactMap { $0 }.joined(separator: " ")
            let problem = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            FileHandle.standardError.write(Data("\(command): \(problem) (\(command) --help lists the options)\n".utf8))
            Foundation.exit(2)
        }
    }
}
