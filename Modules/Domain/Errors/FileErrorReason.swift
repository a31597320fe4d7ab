import Foundation

/// A short reason for a file-system error: the system's message (`No space left on device`)
/// when Foundation wraps one, rather than Foundation's longer sentence.
public func fileErrorReason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(posix.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError || nsError.code == NSFileNoSuchFileError {
        return "No such file or directory"
    }
    return nsError.localizedDescription
}
