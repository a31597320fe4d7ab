import Foundation
import OspreyDomain

extension RedisDataCache {
    /// Where Redis is and what the shared cache keeps there.
    public struct Configuration: Sendable, Hashable {
        /// Redis's host (default `127.0.0.1`).
        public var host: String
        /// Redis's port (default 6379).
        public var port: Int
        /// The logical database (default 0).
        public var database: Int
        /// Prepended to every Redis key, so one Redis can hold several caches (default `osprey:`).
        public var keyPrefix: String
        /// The most bytes of entries kept, across the whole fleet (default 1 GB).
        public var sizeLimit: Int
        /// The most entries kept (default: no limit).
        public var countLimit: Int
        /// The largest single entry stored; larger ones are refused (default 10 MB).
        public var maxEntrySize: Int
        /// When entries expire, set as each entry's Redis TTL (default: 7 days after last use,
        /// the disk cache's default).
        public var expiry: ExpiryPolicy.Rule
        /// Connections open at most per process (default 8).
        public var poolSize: Int
        /// How long connecting may take before Redis counts as unreachable (default 250 ms).
        public var connectTimeout: Duration
        /// How long a reply may take before Redis counts as unreachable (default 250 ms).
        public var commandTimeout: Duration
        /// After a failure, how long commands skip Redis before trying it again (default 1 s).
        public var retryInterval: Duration
        /// The user name sent with ``password`` (`AUTH user password`, Redis 6 ACLs); `nil`: the
        /// default user.
        public var username: String?
        /// The password sent (`AUTH`) on connecting, as `requirepass` or an ACL asks; `nil`: none.
        public var password: String?
        /// Whether to connect over TLS (`rediss://`), the server's certificate verified.
        public var usesTLS: Bool
        /// A PEM file of the authorities that may sign the server's certificate; `nil`: the
        /// system's.
        public var certificateAuthorities: String?

        /// Creates a configuration; every value has a default.
        public init(
            host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, keyPrefix: String = "osprey:",
            sizeLimit: Int = 1_000_000_000, countLimit: Int = .max, maxEntrySize: Int = 10_000_000,
            expiry: ExpiryPolicy.Rule = .sinceLastAccess(7 * 24 * 3600), poolSize: Int = 8,
            connectTimeout: Duration = .milliseconds(250), commandTimeout: Duration = .milliseconds(250),
            retryInterval: Duration = .seconds(1)
        ) {
            self.host = host
            self.port = port
            self.database = database
            self.keyPrefix = keyPrefix
            self.sizeLimit = sizeLimit
            self.countLimit = countLimit
            self.maxEntrySize = maxEntrySize
            self.expiry = expiry
            self.poolSize = poolSize
            self.connectTimeout = connectTimeout
            self.commandTimeout = commandTimeout
            self.retryInterval = retryInterval
            username = nil
            password = nil
            usesTLS = false
            certificateAuthorities = nil
        }

        /// A configuration from a URL of the form `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or
        /// `rediss://…` for TLS, other values default.
        /// - Throws: ``RedisURLError`` for another scheme, a missing host, or a database that is not a number.
        public init(url: String) throws(RedisURLError) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  scheme == "redis" || scheme == "rediss" else {
                throw .notARedisURL(url)
            }
            guard let host = components.host, !host.isEmpty else { throw .notARedisURL(url) }
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard path.isEmpty || Int(path) != nil, let port = components.port ?? Optional(6379), (1...65535).contains(port) else {
                throw .notARedisURL(url)
            }
            self.init(host: host, port: port, database: Int(path) ?? 0)
            usesTLS = scheme == "rediss"
            password = components.password?.removingPercentEncoding
            if let user = components.user?.removingPercentEncoding, !user.isEmpty { username = user }
        }

        /// The TTL in milliseconds to give an entry on a write, and on a read (0: none).
        var ttlMilliseconds: (onStore: Int, onRead: Int) {
            switch expiry {
            case .never: (0, 0)
            case .sinceCreation(let seconds): (Self.milliseconds(seconds), 0)
            case .sinceLastAccess(let seconds): (Self.milliseconds(seconds), Self.milliseconds(seconds))
            }
        }

        private static func milliseconds(_ seconds: TimeInterval) -> Int { max(1, Int((seconds * 1000).rounded(.up))) }
    }
}

/// A shared-cache address that is not `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` or `rediss://…`.
public enum RedisURLError: Error, Hashable, Sendable, CustomStringConvertible {
    case notARedisURL(String)

    public var description: String {
        switch self {
        case .notARedisURL(let url): "not a Redis URL (expected redis:// or rediss://[[USER]:PASSWORD@]HOST[:PORT][/DB]): \(Self.withoutPassword(url))"
        }
    }

    /// `url` with a password replaced by `***`, for messages and logs.
    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
