/// Which of an image's ``ImageMetadata`` an encoder writes, as imgproxy's `strip_metadata`
/// and `keep_copyright` decide.
public enum MetadataPolicy: String, Hashable, Sendable, CaseIterable {
    /// None (the default): a photo's camera, time and position are not passed on.
    case strip
    /// Authorship and rights only: EXIF's Artist and Copyright, IPTC's By-line, Credit and
    /// Copyright Notice, XMP's `dc:creator`, `dc:contributor`, `dc:publisher`, `dc:rights`
    /// and the `xmpRights` and `cc` namespaces (imgproxy's `keep_copyright`).
    case copyright
    /// Every block, as the source had it (the orientation set to 1 where the pixels were turned).
    case all
}
