import Foundation
import Logging
import OspreyDiskCache
import OspreyDomain

extension ImagePipeline.Configuration {
    /// Memory cache, a 256 MB disk cache in the XDG cache folder, the libcurl loader and every
    /// codec: what ``OspreyConfiguration`` builds with its defaults. A disk cache that cannot be
    /// opened is logged and left out; building never fails.
    public static var `default`: Self { OspreyConfiguration().pipelineConfiguration }

    /// The defaults without a disk cache: nothing is written to disk.
    public static var memoryOnly: Self { OspreyConfiguration(cacheDirectory: nil).pipelineConfiguration }

    /// The defaults with the disk cache in `directory`, holding at most `sizeLimit` bytes.
    public static func withDiskCache(at directory: URL, sizeLimit: Int = 256_000_000) -> Self {
        OspreyConfiguration(cacheDirectory: directory, diskLimit: sizeLimit).pipelineConfiguration
    }
}

extension ImagePipeline {
    /// A pipeline with the ``ImagePipeline/Configuration/default`` configuration, made on first use.
    public static let shared = ImagePipeline(configuration: .default)
}
