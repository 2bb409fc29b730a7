import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

extension PhotoPickServer {
    private enum LaunchEvent {
        case bound(origin: Origin, port: Int)
        case finished((any Error)?)
    }

    private enum Origin { case api, files }

    static func launch(
        _ configuration: ServerConfiguration, _ environment: ServerEnvironment, _ faults: FaultInjector,
        dataDirectory: URL, removesDataOnStop: Bool
    ) async throws -> PhotoPickServer {
        var logger = Logger(label: "photopick.server")
        logger.logLevel = .critical
        let (events, continuation) = AsyncStream.makeStream(of: LaunchEvent.self)
        func application(_ router: Router<ServerContext>, port: Int, origin: Origin) -> some Service {
            Application(
                router: router,
                configuration: .init(address: .hostname(configuration.host, port: port), serverName: nil),
                onServerRunning: { channel in continuation.yield(.bound(origin: origin, port: channel.localAddress?.port ?? port)) },
                logger: logger
            )
        }
        let injectFaults = FaultMiddleware(
            injector: faults, latency: configuration.latency, retryAfter: environment.retryAfter,
            retryAfterSeconds: configuration.faultRetryAfter, clock: environment.clock
        )
        var services: [any Service] = [
            application(apiRouter(configuration, environment, injectFaults), port: configuration.port, origin: .api)
        ]
        if let filesPort = configuration.filesPort {
            services.append(application(filesRouter(configuration, environment, injectFaults), port: filesPort, origin: .files))
        }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [], logger: logger))
        let running = Task {
            do {
                try await group.run()
                continuation.yield(.finished(nil))
            } catch {
                continuation.yield(.finished(error))
                throw error
            }
        }
        var apiPort: Int?
        var filesPort: Int?
        for await event in events {
            switch event {
            case .bound(.api, let port): apiPort = port
            case .bound(.files, let port): filesPort = port
            case .finished(let error):
                throw ServerError.cannotBind(bindFailure(configuration, error))
            }
            if apiPort != nil, filesPort != nil || configuration.filesPort == nil { break }
        }
        guard let apiPort else { throw ServerError.cannotBind(bindFailure(configuration, nil)) }
        environment.filesOrigin.port.withLockedValue { $0 = filesPort }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return PhotoPickServer(
            baseURL: URL(string: "http://\(host):\(apiPort)/api/v1")!, port: apiPort, filesPort: filesPort,
            keys: environment.keys.records.map(\.spec), facts: environment.library.facts,
            filesOrigin: environment.filesOrigin, images: environment.images, library: environment.library, serviceGroup: group, running: running,
            dataDirectory: dataDirectory, removesDataOnStop: removesDataOnStop
        )
    }

    private static func bindFailure(_ configuration: ServerConfiguration, _ error: (any Error)?) -> String {
        let ports = [configuration.port] + (configuration.filesPort.map { [$0] } ?? [])
        let detail: String
        switch error {
        case let error as IOError: detail = ": " + String(cString: strerror(error.errnoCode))
        case let error?: detail = ": \(error)"
        case nil: detail = ""
        }
        return "cannot listen on \(configuration.host) port \(ports.map(String.init).joined(separator: " or "))\(detail); "
            + "pick free ports with --port and --files-port, or 0 for any"
    }

    private static func apiRouter(
        _ configuration: ServerConfiguration, _ environment: ServerEnvironment, _ injectFaults: FaultMiddleware
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        let methods = SystemRoutes.MethodTable()
        router.add(middleware: EnvelopeMiddleware(requestLog: configuration.requestLog, clock: environment.clock, methods: methods))
        SystemRoutes.register(on: router)
        if configuration.filesPort == nil { FileRoutes.register(on: router.group("files").add(middleware: injectFaults), environment) }
        // Faults come after authentication, so an injected 429, 503 or 500 carries X-RateLimit-* like a real one.
        let v1 = router.group("api/v1")
            .add(middleware: AuthMiddleware(keys: environment.keys, rateLimiter: environment.rateLimiter, retryAfter: environment.retryAfter, clock: environment.clock))
            .add(middleware: injectFaults)
        AccountRoutes.register(on: v1, environment)
        PhotoRoutes.register(on: v1, environment)
        DownloadRoutes.register(on: v1, environment)
        TagRoutes.register(on: v1, environment)
        methods.learn(from: router.routes)
        return router
    }

    private static func filesRouter(
        _ configuration: ServerConfiguration, _ environment: ServerEnvironment, _ injectFaults: FaultMiddleware
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        var requestLog: (@Sendable (String) -> Void)?
        if let log = configuration.requestLog { requestLog = { line in log("files: " + line) } }
        router.add(middleware: EnvelopeMiddleware(requestLog: requestLog, clock: environment.clock, methods: nil))
        FileRoutes.register(on: router.group("files").add(middleware: injectFaults), environment)
        return router
    }
}
