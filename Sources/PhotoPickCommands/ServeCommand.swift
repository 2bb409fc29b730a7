import ArgumentParser
import Foundation
import PhotoPickServer

/// `photopick serve`: the embedded PhotoPick-compatible server on its own.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the embedded PhotoPick-compatible server with a demo library."
    )

    @Option(help: "Interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "API port; 0 picks a free one.")
    var port = 8787

    @Option(help: "Directory that keeps the library between runs (default: a temporary one).")
    var data: String?

    @Option(name: .customLong("photos"), help: "Photos in a new demo library.")
    var photoCount = 2000

    @Option(help: "Seed of the demo library and of fault injection.")
    var seed: UInt64 = 1

    @Option(name: .customLong("key"), help: "Accept KEY[=scope,scope...][@ip,ip...]; repeatable. Default: one full-scope key kept in the library.")
    var keys: [String] = []

    @Option(help: "Requests per key per rate-limit window.")
    var rateLimit = 300

    @Option(help: "Length of the rate-limit window, in seconds.")
    var rateLimitWindow = 60

    @Option(help: "Serve signed file URLs from this second port, as a separate storage origin.")
    var filesPort: Int?

    @Option(help: "Fraction of requests (0...1) that get an injected fault.")
    var faultRate = 0.0

    @Option(help: "Faults to inject: 500,503,429,reset,truncate,slow.")
    var faults = FaultKind.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Stall of a 'slow' fault, in milliseconds.")
    var latency = 1500

    @Flag(help: "Send Retry-After as an HTTP-date instead of seconds.")
    var retryAfterDate = false

    @Option(help: "Size of originals in a new demo library, in megapixels.")
    var originalMegapixels = 12.0

    @Option(help: ArgumentHelp("Store these photos' originals damaged (their magic number, then random bytes), to test what reads originals.", valueName: "id,id..."))
    var damagedOriginals: String?

    func validate() throws {
        _ = try damagedIDs()
    }

    private func damagedIDs() throws -> Set<Int64> {
        guard let damagedOriginals else { return [] }
        let ids = damagedOriginals.split(separator: ",").map { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--damaged-originals \(damagedOriginals) is not a list of photo ids; write it like 5,97")
        }
        return Set(ids.compactMap { $0 })
    }

    /// A `ServerError` is reported by `PhotoPickCommand.main`.
    func run() async throws {
        var configuration = ServerConfiguration(
            host: host, port: port, dataDirectory: data.map { URL(fileURLWithPath: $0, isDirectory: true) },
            photoCount: photoCount, seed: seed, keys: try keys.map(KeySpec.init(parsing:)), rateLimit: rateLimit,
            rateLimitWindow: rateLimitWindow,
            filesPort: filesPort, faultRate: faultRate, faults: try FaultKind.parseList(faults),
            latency: .milliseconds(latency), retryAfterAsDate: retryAfterDate, originalMegapixels: originalMegapixels,
            requestLog: { Console.line($0) }
        )
        configuration.damagedOriginals = try damagedIDs()
        let server = try await PhotoPickServer.start(configuration)
        Console.line("PhotoPick server at \(server.baseURL.absoluteString)")
        if let filesBaseURL = server.filesBaseURL { Console.line("files origin at \(filesBaseURL.absoluteString)") }
        for key in server.keys {
            Console.line("key \(key.key) scopes \(key.scopes.sorted().map(\.rawValue).joined(separator: ","))")
        }
        let library = server.createdLibrary ? "new library" : "stored library"
        Console.line("\(library): \(server.photoCount) photos, seed \(server.seed); stop with Ctrl-C")
        await ShutdownSignals.wait()
        Console.line("stopping")
        await server.stop()
    }
}
