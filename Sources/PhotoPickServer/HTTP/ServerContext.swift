import Hummingbird
import NIOCore

/// Per-request state: the channel (for injected resets), the caller's key, and fault flags.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// Set by `AuthMiddleware` once the key checks out.
    var apiKey: APIKeyRecord?
    /// Set by `FaultMiddleware` when this file body must stop partway.
    var truncatesFileBody = false

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The caller's key, which must carry `scope`.
    func requireScope(_ scope: Scope) throws -> APIKeyRecord {
        guard let apiKey else { throw APIFailure.missingKey }
        guard apiKey.spec.scopes.contains(scope) else { throw APIFailure.scopeRequired(scope) }
        return apiKey
    }
}
