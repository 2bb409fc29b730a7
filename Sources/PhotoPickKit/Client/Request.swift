import Foundation

/// One API call and the type of its answer, in the spirit of kean/Get: `client.send(API.photo(id: 7))`.
public struct Request<Response: Sendable>: Sendable {
    /// The HTTP method, such as `GET`.
    public var method: Method
    /// Path below the base URL, such as `/photos/7`.
    public var path: String
    /// Query parameters, in order.
    public var query: [(name: String, value: String)]
    /// The JSON body, already encoded.
    public var body: Data?
    /// A whole URL to ask instead of `path` below the base URL, such as a signed file URL.
    var absoluteURL: URL?
    /// Headers besides the client's own, such as an `Accept` for file bytes.
    var headers: [(String, String)] = []
    /// Whether a POST may be sent again after a failure that may have applied it, because its caller
    /// resolves the repeat (a second `POST /tags` answers 409 naming the tag the first one made).
    var retriesAmbiguousFailures = false
    let decode: @Sendable (RawResponse) throws -> Response

    init(
        _ method: Method, _ path: String, query: [(name: String, value: String)] = [], body: (any Encodable & Sendable)? = nil,
        decode: @escaping @Sendable (RawResponse) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.query = query
        // Our bodies are plain structs of strings, numbers and optionals: encoding them cannot fail.
        self.body = body.map { try! JSONEncoder().encode($0) }
        self.decode = decode
    }

    /// The HTTP method, such as `GET`.
    public typealias Method = RequestMethod

    /// Whether repeating the call is harmless, so failures may be retried blindly: every method but POST.
    public var isIdempotent: Bool { method != .post }

    /// The absolute URL of this request below `baseURL`.
    public func url(relativeTo baseURL: URL) -> URL {
        if let absoluteURL { return absoluteURL }
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(Self.encodeQuery($0.name))=\(Self.encodeQuery($0.value))" }
                .joined(separator: "&")
        }
        return components.url!
    }

    private static func encodeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? text
    }
}

/// What a query name or value may hold unescaped; a generic type cannot keep this as a static.
private let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))

/// An HTTP method.
public struct RequestMethod: RawRepresentable, Sendable, Hashable {
    /// The method's name, such as `GET`.
    public let rawValue: String
    /// A method by its name, such as `HEAD`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`: read.
    public static let get = RequestMethod(rawValue: "GET")
    /// `POST`: create; not idempotent, so a failure is not retried blindly.
    public static let post = RequestMethod(rawValue: "POST")
    /// `PUT`: replace.
    public static let put = RequestMethod(rawValue: "PUT")
    /// `PATCH`: change some fields.
    public static let patch = RequestMethod(rawValue: "PATCH")
    /// `DELETE`: remove.
    public static let delete = RequestMethod(rawValue: "DELETE")
}

extension Request where Response: Decodable {
    init(_ method: Method, _ path: String, query: [(name: String, value: String)] = [], body: (any Encodable & Sendable)? = nil) {
        self.init(method, path, query: query, body: body) { try $0.decodeJSON(Response.self) }
    }
}

extension Request where Response == RawResponse {
    /// A GET of a whole URL, such as the signed URL a download redirects to, answered as it came.
    init(get url: URL) {
        self.init(.get, url.path) { $0 }
        absoluteURL = url
        headers = [("Accept", "*/*")]
    }
}

extension Request where Response == Void {
    init(_ method: Method, _ path: String, body: (any Encodable & Sendable)? = nil) {
        self.init(method, path, body: body) { _ in () }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
