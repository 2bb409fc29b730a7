import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The OpenAPI document, and the answers for requests no route takes.
enum SystemRoutes {
    /// The methods each v1 path answers, read from the router once its routes are registered, so the
    /// 405 answers cannot drift from the routes themselves.
    final class MethodTable: Sendable {
        private let endpoints = NIOLockedValueBox<[(path: [RouterPath.Element], methods: [HTTPRequest.Method])]>([])
        private static let prefix: RouterPath = "api/v1"
        private static let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]

        /// Takes the v1 routes of a router that has all of them.
        func learn(from routes: [Router<ServerContext>.RouteDescription]) {
            var table: [(path: [RouterPath.Element], methods: [HTTPRequest.Method])] = []
            for route in routes where route.path.components.starts(with: Self.prefix.components) {
                let path = Array(route.path.components.dropFirst(Self.prefix.components.count))
                if let index = table.firstIndex(where: { $0.path == path }) {
                    table[index].methods.append(route.method)
                } else {
                    table.append((path, [route.method]))
                }
            }
            let order = Self.order
            endpoints.withLockedValue { endpoints in
                endpoints = table.map { ($0.path, $0.methods.sorted { (order.firstIndex(of: $0) ?? 9) < (order.firstIndex(of: $1) ?? 9) }) }
            }
        }

        /// The methods a v1 path answers, when the path is one of ours; nil for unknown paths.
        func allowedMethods(forPath path: String) -> [HTTPRequest.Method]? {
            guard path.hasPrefix("/api/v1/") else { return nil }
            let segments = path.dropFirst("/api/v1/".count).split(separator: "/", omittingEmptySubsequences: false)
            return endpoints.withLockedValue { endpoints in
                endpoints.first { endpoint in
                    endpoint.path.count == segments.count
                        && zip(endpoint.path, segments).allSatisfy { element, segment in !segment.isEmpty && element ~= segment }
                }?.methods
            }
        }
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
    /// known path asked with another method (when there is a `table` of them), else 404.
    static func unrouted(_ request: Request, methods table: MethodTable?) -> APIFailure {
        let path = request.uri.path
        if path == "/api/v0" || path.hasPrefix("/api/v0/") {
            return APIFailure(status: .gone, code: "gone", message: "API v0 is retired; use /api/v1",
                              headers: [.sunset: Timestamp.httpDate(v0Sunset), .deprecation: "@\(v0Sunset - 15_552_000)"])
        }
        guard let methods = table?.allowedMethods(forPath: path) else {
            return .notFound("No such endpoint: \(request.method) \(path)")
        }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        return APIFailure(status: .methodNotAllowed, code: "method_not_allowed",
                          message: "\(request.method) is not supported here; use \(allow)", headers: [.allow: allow])
    }
}
