#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyTesting
import Testing

/// The tests' servers start on ports found free; an outgoing connection can take such a port
/// before the server binds it (CI lost a run to that once). These use a real `redis-server`.
@Suite("Spawned test servers")
struct SpawnedServerTests {
    @Test func aServerWhosePortIsTakenIsReportedAsExitedAtOnce() throws {
        let held = try LoopbackPort.hold()
        defer { close(held.descriptor) }
        let started = ContinuousClock.now
        #expect {
            try SpawnedServer(RedisServer.arguments(RedisServer.executable(), port: held.port), port: held.port)
        } throws: { error in
            guard case SpawnedServerError.exited(_, let port) = error else { return false }
            return port == held.port
        }
        #expect(ContinuousClock.now - started < Sanitizer.scaled(.seconds(5)), "not the 10 s wait for a server that never came")
    }

    @Test func aServerWhosePortIsTakenStartsAgainOnAnother() throws {
        let held = try LoopbackPort.hold()
        defer { close(held.descriptor) }
        let executable = try RedisServer.executable()
        var ports: [Int] = []
        let server = try SpawnedServer.onFreePort { port in
            ports.append(port)
            return RedisServer.arguments(executable, port: ports.count == 1 ? held.port : port)
        }
        defer { server.end(SIGTERM) }
        #expect(ports.count == 2)
        #expect(server.port == ports[1] && server.port != held.port)
        #expect(LoopbackPort.accepts(server.port))
    }
}
