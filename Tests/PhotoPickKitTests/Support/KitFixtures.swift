import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport

@discardableResult
/// Runs `body` against a fresh server whose request log is captured; stops server and client afterwards.
/// With a `clock`, the server and client both wait on it.
func withKitServer<Result>(
    photos: Int = 200, seed: UInt64 = 7, _ configure: (inout ServerConfiguration) -> Void = { _ in },
    retryPolicy: RetryPolicy = .fast, clientLog: LineLog = LineLog(), clock: TestClock? = nil,
    _ body: (PhotoPickServer, APIClient, LineLog) async throws -> Result
) async throws -> Result {
    let serverLog = LineLog()
    return try await TestServer.with(photos: photos, seed: seed, { configuration in
        configuration.requestLog = { serverLog.append($0) }
        if let clock { configuration.clock = clock }
        configure(&configuration)
    }) { server, _ in
        let client = clock.map { APIClient.forTesting(server, clock: $0, retryPolicy: retryPolicy, log: clientLog) }
            ?? APIClient.forTesting(server, retryPolicy: retryPolicy, log: clientLog)
        do {
            let result = try await body(server, client, serverLog)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
