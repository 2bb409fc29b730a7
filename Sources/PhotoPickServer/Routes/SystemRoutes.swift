import HTTPTypes
import Hummingbird
import NIOCore

/// The OpenAPI document, and the answers for requests no route takes.
enum SystemRoutes {
    /// The v1 endpoints and the methods each answers; any other method on these paths is a 405.
    static let endpoints: [(path: [String], methods: [HTTPRequest.Method])] = [
        (["me"], [.get]), (["customer"], [.get]), (["photos"], [.get]), (["photos", ":id"], [.get, .patch, .delete]),
        (["photos", ":id", "download"], [.get]), (["photos", ":id", "tags"], [.get, .put]), (["tags"], [.get, .post]),
        (["tags", ":id"], [.get, .patch, .delete]), (["openapi.yaml"], [.get]),
    ]

    /// The methods a v1 path answers, when the path is one of ours; nil for unknown paths.
    static func allowedMethods(forPath path: String) -> [HTTPRequest.Method]? {
        guard path.hasPrefix("/api/v1/") else { return nil }
        let segments = path.dropFirst("/api/v1/".count).split(separator: "/", omittingEmptySubsequences: false)
        return endpoints.first { endpoint in
            endpoint.path.count == segments.count
                && zip(endpoint.path, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }?.methods
    }

    /// When v0 was retired; its endpoints answer 410 Gone.
    static let v0Sunset: Int64 = 1_735_689_600

    static func register(on router: Router<ServerContext>) {
        router.get("api/v1/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: .init(byteBuffer: ByteBuffer(string: EmbeddedResources.openapiYAML)))
        }
    }

    /// What a request that matched no route gets: 410 for the retired v0, 405 with `Allow` for a
    /// known path asked with another method, else 404.
    static func unrouted(_ request: Request) -> APIFailure {
        let path = request.uri.path
        if path == "/api/v0" || path.hasPrefix("/api/v0/") {
            return APIFailure(status: .gone, code: "gone", message: "API v0 is retired; use /api/v1",
                              headers: [.sunset: Timestamp.httpDate(v0Sunset), .deprecation: "@\(v0Sunset - 15_552_000)"])
        }
        guard let methods = allowedMethods(forPath: path) else {
            return .notFound("No such endpoint: \(request.method) \(path)")
        }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        return APIFailure(status: .methodNotAllowed, code: "method_not_allowed",
                          message: "\(request.method) is not supported here; use \(allow)", headers: [.allow: allow])
    }
}
