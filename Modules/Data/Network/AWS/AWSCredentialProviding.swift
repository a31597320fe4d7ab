/// Something that hands out AWS credentials when a request is about to be signed: fixed keys,
/// or an ``AWSCredentialChain`` that fetches temporary ones and renews them before they expire.
public protocol AWSCredentialProviding: Sendable {
    /// Credentials valid now.
    /// - Throws: ``AWSCredentialError`` when none can be had.
    func credentials() async throws -> AWSCredentials
}
