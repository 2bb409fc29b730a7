import Foundation
import PhotoPickKit

/// The embedded server in a process of its own, so the memory measured for a client is the client's alone.
struct BenchServer {
    let baseURL: URL
    let key: APIKey
    private let process: ChildProcess
    private let dataDirectory: URL

    /// Starts `photopick-bench _server` with a new library and waits until it answers.
    static func start(photos: Int, megapixels: Double) throws -> BenchServer {
        let data = FileManager.default.temporaryDirectory.appending(path: "photopick-bench-\(UUID().uuidString)")
        let process = try ChildProcess.spawn(
            ChildProcess.ownExecutable,
            ["_server", "--photos", String(photos), "--megapixels", String(megapixels), "--data", data.path],
            captureOutput: true
        )
        guard let line = process.readLine(), line.hasPrefix("READY ") else {
            process.terminate()
            throw BenchError("the benchmark server did not start")
        }
        let parts = line.split(separator: " ")
        return BenchServer(baseURL: URL(string: String(parts[1]))!, key: APIKey(String(parts[2])), process: process, dataDirectory: data)
    }

    func stop() {
        process.terminate()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// A client for the server, with the key in memory only.
    func client(concurrency: Int = 8) -> APIClient {
        benchClient(baseURL, apiKey: .fixed(key), concurrency: concurrency)
    }

    /// For children, which read the key from the environment rather than from argv.
    var environment: [String: String] { ["PHOTOPICK_API_KEY": key.secret] }
}
