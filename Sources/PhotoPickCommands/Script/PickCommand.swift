import ArgumentParser
import Foundation
import PhotoBrowser

/// `photopick pick [QUERY]`: the browser as a picker, for scripts, as nnn's and yazi's chooser modes:
/// choose with the browser's keys, quit, and the selected photos' ids (or downloaded files' paths)
/// come out on standard output, one per line, for `xargs`. The screen is drawn on the terminal
/// itself, so standard output carries nothing else.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose photos in the browser; on quit, print the selected ids (or --paths) one per line.",
        discussion: """
            Select with space, v, a or the query; quit with q. Only the selection is printed: the listed photos in list \
            order, then any the query hides; nothing when nothing is selected. Exit codes are the browser's.
            """
    )

    @OptionGroup var browse: BrowseCommand

    @Argument(help: ArgumentHelp("A query the list opens filtered by, as after / in the browser.", valueName: "query"))
    var query: [String] = []

    @Flag(help: "Print the paths of the selected photos' downloaded files instead of their ids (photos not downloaded are left out).")
    var paths = false

    func run() async throws {
        // The screen goes to the terminal, standard output to the caller's pipe or file.
        let output = dup(STDOUT_FILENO)
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard output >= 0, terminal >= 0 else {
            FileHandle.standardError.write(Data("photopick pick: no terminal to draw on (/dev/tty cannot be opened); run it from a terminal\n".utf8))
            throw ExitCode(2)
        }
        dup2(terminal, STDOUT_FILENO)
        if isatty(STDIN_FILENO) == 0 { dup2(terminal, STDIN_FILENO) }
        close(terminal)
        let lines = await choose()
        dup2(output, STDOUT_FILENO)
        close(output)
        if let message = lines.status.message {
            FileHandle.standardError.write(Data("photopick: \(message)\n".utf8))
        }
        if !lines.chosen.isEmpty {
            FileHandle.standardOutput.write(Data((lines.chosen.joined(separator: "\n") + "\n").utf8))
        }
        if lines.status.code != 0 { throw ExitCode(lines.status.code) }
    }

    @MainActor
    private func choose() async -> (status: ExitStatus, chosen: [String]) {
        var chosen: [String] = []
        var launcher = Launcher(options: browse)
        launcher.initialQuery = query.joined(separator: " ")
        let paths = paths
        launcher.onQuit = { state in chosen = Self.chosen(state, paths: paths) }
        let status = await launcher.run()
        return (status, chosen)
    }

    /// The whole selection, as the browser's keys act on it: the listed photos in list order, then any
    /// the query now hides. Ids, or the paths of the files downloaded for them.
    @MainActor
    static func chosen(_ state: BrowserState, paths: Bool) -> [String] {
        let listed = state.list.libraryIndices.filter(state.selection.contains)
        let shown = Set(listed)
        let photos = listed + state.selection.indices.filter { !shown.contains($0) }
        return photos.compactMap { index -> String? in
            let id = state.library.id(at: index)
            guard paths else { return String(id) }
            // The file a finished download saved, if it is still there.
            return state.downloads.items.first {
                $0.photoID == id && $0.status.isFinished && $0.resultPath.map(FileManager.default.fileExists(atPath:)) == true
            }?.resultPath
        }
    }
}
