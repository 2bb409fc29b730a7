import HTTPTypes
import Hummingbird
import NIOCore

/// The OpenAPI document, the retired v0 and 405s for known paths with unknown methods.
enum SystemRoutes {
    /// The v1 endpoints and the methods each answers; everything else on these paths is a 405.
    static let endpoints: [(path: String, methods: [HTTPRequest.Method])] = [
        ("me", [.get]), ("customer", [.get]), ("photos", [.get]), ("photos/:id", [.get, .patch, .delete]),
        ("photos/:id/download", [.get]), ("photos/:id/tags", [.get, .put]), ("tags", [.get, .post]),
        ("tags/:id", [.get, .patch, .delete]),
    ]

    /// When v0 was retired; its endpoints answer 410 Gone.
    static let v0Sunset: Int64 = 1_735_689_600

    static func register(on router: Router<ServerContext>) {
        router.get("api/v1/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: .init(byteBuffer: ByteBuffer(string: EmbeddedResources.openapiYAML)))
        }
        let v1 = router.group("api/v1")
        let all: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options, .trace]
        for endpoint in endpoints {
            let allow = endpoint.methods.map(\.rawValue).joined(separator: ", ")
            for method in all where !endpoint.methods.contains(method) {
                v1.on(RouterPath(endpoint.path), method: method) { request, _ -> Response in
                    throw APIFailure(status: .methodNotAllowed, code: "method_not_allowed",
                                     message: "\(request.method) is not supported here; use \(allow)",
                                     headers: [.allow: allow])
                }
            }
        }
        for method in all + [.head] {
            router.on("api/v0/**", method: method) { _, _ -> Response in
                throw APIFailure(status: .gone, code: "gone", message: "API v0 is retired; use /api/v1",
                                 headers: [.sunset: Timestamp.httpDate(v0Sunset), .deprecation: "@\(v0Sunset - 15_552_000)"])
            }
        }
    }
}
