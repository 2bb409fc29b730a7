import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickServer

/// The default command. The terminal browser is not built yet, so for now it serves the
/// persistent demo library and says so.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a PhotoPick library (for now: serve the demo library and say so)."
    )

    func run() async throws {
        let directory = DemoLibraryLocation.directory
        let server = try await PhotoPickServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
        Console.line("photopick \(PhotoPickCommand.version): the terminal browser is not in this build yet.")
        Console.line("Serving the demo library (\(server.photoCount) photos, kept in \(directory.path)) at \(server.baseURL.absoluteString)")
        Console.line("Try: curl -H \"Authorization: Bearer \(server.demoKey)\" '\(server.baseURL.absoluteString)/photos?limit=3'")
        Console.line("Stop with Ctrl-C.")
        await ShutdownSignals.wait()
        await server.stop()
    }
}

/// Where the demo library lives: `$XDG_DATA_HOME/photopick/demo`, by default `~/.local/share/photopick/demo`.
enum DemoLibraryLocation {
    static var directory: URL {
        XDGDirectory.resolve("XDG_DATA_HOME", fallback: ".local/share", components: "photopick/demo")
    }
}
