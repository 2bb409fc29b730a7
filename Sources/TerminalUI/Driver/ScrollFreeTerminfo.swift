import CNcursesw
import Foundation

/// The terminal description ncurses is started with: TERM's own, less the capabilities it scrolls with.
///
/// ncurses' update moves rows that moved by scrolling them (a scroll region with `ind`/`ri`, or line
/// insertion and deletion), whatever `idlok` says: tty_update.c runs its scroll optimisation whenever
/// the terminal can scroll, and only the `il`/`dl` fallback asks idlok. A terminal scrolls an image's
/// pixels with the rows they lie on, so the list scrolling beside the side pane's photo dragged pieces
/// of it up or down. Without those capabilities ncurses writes every moved row where it now is; the
/// cost is the text of the rows that moved, which a frame that moves them mostly rewrites anyway.
///
/// ncurses has no call to drop a capability, and the copy its own code reads is not the one term.h
/// reaches, so the description is compiled by `tic` (ncurses' own compiler, in ncurses-bin) as
/// `use=TERM` with the capabilities cancelled, into a folder of its own that ncurses reads once
/// through `TERMINFO` and that is removed as soon as it has.
enum ScrollFreeTerminfo {
    /// What ncurses scrolls with: scroll region, index and reverse index (one and several), line
    /// insertion and deletion (one and several).
    static let cancelled = ["csr", "ind", "ri", "indn", "rin", "il1", "dl1", "il", "dl"]

    /// What mlterm (3.9) erases wrongly on a row with wide characters: erasing n columns from the
    /// start of the line (`el1`) or the cursor (`ech`) erases a column fewer for each wide character,
    /// which left the tails of CJK names beside the full-screen photo. Without them ncurses writes
    /// spaces, or erases to the end of the line, which mlterm gets right.
    static let cancelledForMlterm = ["ech", "el1"]

    /// The terminfo source for `term` less `cancelled` and `also`.
    static func source(for term: String, name: String, also: [String] = []) -> String {
        "\(name)|\(term) as photopick drives it,\n\t\((cancelled + also).map { $0 + "@" }.joined(separator: ", ")),\n\tuse=\(term),\n"
    }

    /// Starts ncurses on `term` (TERM when nil) without scrolling, when tic can compile it; nil otherwise,
    /// and the caller starts it on `term` as it is. `why` says what failed, for the log.
    static func newScreen(
        term: String?, also: [String] = [], output: UnsafeMutablePointer<FILE>?, input: UnsafeMutablePointer<FILE>?, why: inout String?
    ) -> OpaquePointer? {
        guard let term = term ?? ProcessInfo.processInfo.environment["TERM"], !term.isEmpty,
              term.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+".contains($0)) }) else {
            why = "TERM is not a plain terminal name"
            return nil
        }
        guard let tic = ["/usr/bin/tic", "/bin/tic", "/usr/local/bin/tic", "/opt/homebrew/bin/tic"].first(where: FileManager.default.isExecutableFile) else {
            why = "tic (ncurses-bin) is not installed"
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "photopick-terminfo-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "photopick-\(term)" + (also.isEmpty ? "" : "-" + also.joined(separator: "-"))
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let file = folder.appending(path: "entry.src")
            try Data(source(for: term, name: name, also: also).utf8).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tic)
            process.arguments = ["-x", "-o", folder.path, file.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                why = "tic could not compile \(term) (status \(process.terminationStatus))"
                return nil
            }
        } catch {
            why = "could not compile \(term): \(error.localizedDescription)"
            return nil
        }
        // ncurses looks in TERMINFO first; the variable is put back at once, so nothing started later sees it.
        let previous = getenv("TERMINFO").map { String(cString: $0) }
        setenv("TERMINFO", folder.path, 1)
        let screen = newterm(name, output, input)
        if let previous { setenv("TERMINFO", previous, 1) } else { unsetenv("TERMINFO") }
        if screen == nil { why = "ncurses could not read the compiled \(name)" }
        return screen
    }
}
