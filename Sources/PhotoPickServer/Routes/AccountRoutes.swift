import Hummingbird

/// `GET /me` and `GET /customer`.
enum AccountRoutes {
    private struct Me: Encodable {
        struct RateLimit: Encodable {
            let limit: Int
            let remaining: Int
            let reset: Int
        }

        let apiKeyId: Int
        let customerId: Int
        let name: String
        let scopes: [String]
        let rateLimit: RateLimit
    }

    private struct Customer: Encodable {
        let id: Int
        let name: String
        let tariff: String
    }

    /// The embedded server has one customer, the demo photographer.
    static let customerID = 1
    static let customerName = "Demo Photographer"

    static func register(on group: RouterGroup<ServerContext>, _ environment: ServerEnvironment) {
        group.get("me") { _, context in
            let key = try context.requireScope(.customerRead)
            let budget = environment.rateLimiter.peek(keyID: key.id, now: Int(environment.clock.now()))
            return try JSONResponse.make(Me(
                apiKeyId: key.id, customerId: customerID, name: key.name,
                scopes: key.spec.scopes.sorted().map(\.rawValue),
                rateLimit: .init(limit: budget.limit, remaining: budget.remaining, reset: budget.reset)
            ))
        }
        group.get("customer") { _, context in
            _ = try context.requireScope(.customerRead)
            return try JSONResponse.make(Customer(id: customerID, name: customerName, tariff: "demo"))
        }
    }
}
