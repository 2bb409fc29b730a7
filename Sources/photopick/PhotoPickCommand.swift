import ArgumentParser

/// The photopick program: the browser by default, `photopick serve` for the embedded server alone.
@main
struct PhotoPickCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "photopick",
        abstract: "A fast, keyboard-driven terminal browser for PhotoPick photo libraries.",
        version: version,
        subcommands: [BrowseCommand.self, ServeCommand.self],
        defaultSubcommand: BrowseCommand.self
    )
}
