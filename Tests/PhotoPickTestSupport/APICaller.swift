import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PhotoPickServer

/// A response, fully read.
public struct HTTPResult: Sendable {
    /// The HTTP status.
    public let status: Int
    /// The response headers.
    public let headers: HTTPHeaders
    /// The whole body.
    public let body: [UInt8]

    /// The first value of a header, if sent.
    public func header(_ name: String) -> String? { headers.first(name: name) }
    /// The body as JSON; null when it is not JSON.
    public var json: JSON { JSON(parsing: body) ?? .null }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The error envelope's code, when this is one.
    public var errorCode: String? { json["error"]["code"].string }
}

/// Plain HTTP calls against a test server, with its key; redirects are not followed.
public struct APICaller: Sendable {
    /// The server called.
    public let server: PhotoPickServer
    /// The API key sent, if any.
    public var key: String?

    /// Calls `server` with `key`, by default the server's demo key.
    public init(server: PhotoPickServer, key: String? = nil) {
        self.server = server
        self.key = key ?? server.demoKey
    }

    /// The same server, with another key (or none).
    public func with(key: String?) -> APICaller {
        var caller = self
        caller.key = key
        return caller
    }

    /// `GET path`, with extra headers.
    public func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.GET, path, headers: headers)
    }

    /// `path` is relative to the API base (`/photos`); absolute URLs are used as they are.
    public func send(
        _ method: HTTPMethod, _ path: String, json body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) async throws -> HTTPResult {
        let url = path.hasPrefix("http") ? path : server.baseURL.absoluteString + path
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let body {
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            request.body = .bytes(ByteBuffer(string: body))
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        return try await Self.execute(request)
    }

    /// `GET /photos/{photo}/download` with `query` (such as `?size=web`), not followed: normally a 302 to a signed file URL.
    public func downloadRedirect(photo: Int, query: String = "") async throws -> HTTPResult {
        try await get("/photos/\(photo)/download" + query)
    }

    /// The signed file URL the download of `photo` redirects to, to fetch without the key; nil when it does not redirect.
    public func signedURL(photo: Int, query: String = "") async throws -> String? {
        try await downloadRedirect(photo: photo, query: query).header("Location")
    }

    /// Fetches a URL with exactly the given headers: no key.
    public static func fetch(_ url: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await execute(request)
    }

    static func execute(_ request: HTTPClientRequest) async throws -> HTTPResult {
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 256 << 20)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: Array(body.readableBytesView))
    }

    /// One client for every test; tests never shut it down, so it lives as long as the process.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(60)))
    )
}
