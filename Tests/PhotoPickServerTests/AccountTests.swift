import Foundation
import NIOHTTP1
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `/me`, `/customer`, authentication, scopes and the answers for unknown routes.
struct AccountTests {
    @Test func meReportsTheKeyItsScopesAndTheRateLimit() async throws {
        try await TestServer.with({ $0.rateLimit = 50 }) { _, api in
            let me = try await api.get("/me")
            #expect(me.status == 200)
            #expect(me.json["apiKeyId"].int == 1)
            #expect(me.json["customerId"].int == 1)
            #expect(me.json["name"].string == "Demo key")
            #expect(me.json["scopes"].array.compactMap(\.string) == Scope.allCases.map(\.rawValue).sorted())
            #expect(me.json["rateLimit"]["limit"].int == 50)
            #expect(me.json["rateLimit"]["remaining"].int == 49)
            #expect((me.json["rateLimit"]["reset"].int ?? 0) > Int(Date().timeIntervalSince1970) - 1)
        }
    }

    @Test func customerReportsNameAndTariff() async throws {
        try await TestServer.with { _, api in
            let customer = try await api.get("/customer")
            #expect(customer.status == 200)
            #expect(customer.json["id"].int == 1)
            #expect(customer.json["tariff"].string == "demo")
            #expect(customer.json["name"].string?.isEmpty == false)
        }
    }

    @Test func missingMalformedAndUnknownKeysAreUnauthorized() async throws {
        try await TestServer.with { _, api in
            let missing = try await api.with(key: nil).get("/photos")
            #expect(missing.status == 401)
            #expect(missing.errorCode == "unauthorized")
            let malformed = try await api.with(key: nil).get("/photos", headers: [("Authorization", "Basic abc")])
            #expect(malformed.status == 401)
            let unknown = try await api.with(key: "pp_test_doesnotexist").get("/photos")
            #expect(unknown.status == 401)
            #expect(unknown.errorCode == "unauthorized")
            #expect(!unknown.text.contains("pp_test_doesnotexist"))
        }
    }

    @Test func scopeViolationsNameTheMissingScope() async throws {
        let reader = try KeySpec(parsing: "pp_test_readeronly=photos:read")
        try await TestServer.with({ $0.keys = [try! KeySpec(parsing: "pp_test_fullaccess"), reader] }) { _, api in
            let limited = api.with(key: reader.key)
            #expect(try await limited.get("/photos").status == 200)
            let cases: [(HTTPMethod, String, String?, Scope)] = [
                (.GET, "/me", nil, .customerRead),
                (.GET, "/customer", nil, .customerRead),
                (.GET, "/tags", nil, .tagsRead),
                (.GET, "/tags/1", nil, .tagsRead),
                (.POST, "/tags", #"{"name":"x"}"#, .tagsWrite),
                (.PATCH, "/tags/1", #"{"name":"x"}"#, .tagsWrite),
                (.DELETE, "/tags/1", nil, .tagsWrite),
                (.PATCH, "/photos/1", #"{"title":"x"}"#, .photosWrite),
                (.PUT, "/photos/1/tags", #"{"tagIds":[]}"#, .photosWrite),
                (.DELETE, "/photos/1", nil, .photosDelete),
            ]
            for (method, path, body, scope) in cases {
                let result = try await limited.send(method, path, json: body)
                #expect(result.status == 403, "\(method) \(path)")
                #expect(result.errorCode == "scope_required", "\(method) \(path)")
                #expect(result.json["error"]["details"]["scope"].string == scope.rawValue, "\(method) \(path)")
            }
        }
    }

    @Test func ipAllowListRefusesOtherSources() async throws {
        let elsewhere = try KeySpec(parsing: "pp_test_elsewhere@192.0.2.7")
        let local = try KeySpec(parsing: "pp_test_localonly@127.0.0.1")
        try await TestServer.with({ $0.keys = [elsewhere, local] }) { _, api in
            let refused = try await api.with(key: elsewhere.key).get("/photos/1")
            #expect(refused.status == 403)
            #expect(refused.errorCode == "ip_not_whitelisted")
            #expect(try await api.with(key: local.key).get("/photos/1").status == 200)
        }
    }

    @Test func unknownPathsAre404AndKnownPathsWithOtherMethodsAre405() async throws {
        try await TestServer.with { _, api in
            let unknown = try await api.get("/albums")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")
            #expect(unknown.header("X-Request-Id") != nil)
            let wrongMethod = try await api.send(.POST, "/photos/1", json: "{}")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "GET, PATCH, DELETE")
            #expect(wrongMethod.errorCode == "method_not_allowed")
        }
    }

    @Test func theRetiredVersionIsGoneWithSunset() async throws {
        try await TestServer.with { server, api in
            let url = server.baseURL.absoluteString.replacingOccurrences(of: "/api/v1", with: "/api/v0/photos")
            let gone = try await api.get(url)
            #expect(gone.status == 410)
            #expect(gone.errorCode == "gone")
            #expect(gone.header("Sunset")?.hasSuffix("GMT") == true)
            #expect(gone.header("Deprecation") != nil)
        }
    }

    @Test func servesItsOpenAPIDocumentWithoutAKey() async throws {
        try await TestServer.with { _, api in
            let document = try await api.with(key: nil).get("/openapi.yaml")
            #expect(document.status == 200)
            #expect(document.header("Content-Type") == "application/yaml")
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../Resources/openapi.yaml")
            #expect(document.text == (try String(contentsOf: source, encoding: .utf8)))
        }
    }
}
