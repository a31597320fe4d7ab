import Logging

extension Logger.Level {
    /// imgproxy's `IMGPROXY_LOG_LEVEL` names.
    init?(imgproxyName: String?) {
        switch imgproxyName {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warning
        case "error": self = .error
        default: return nil
        }
    }
}
