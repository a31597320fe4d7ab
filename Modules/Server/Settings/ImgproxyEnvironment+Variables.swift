extension ImgproxyEnvironment {
    /// Variables refused below unless set to what Osprey does anyway, with that test.
    package static let acceptedAsOspreyDoes: [String: @Sendable (String) -> Bool] = [
        "NETWORK": { ["tcp", "tcp4", "tcp6"].contains($0) },
    ]

    /// Variables that stop the start when set to what Osprey cannot do, and why: each would
    /// change what is served, or who may use the server, if passed over.
    package static let refused: [String: String] = [
        "NETWORK": "Osprey listens on TCP only",
        "MAX_ANIMATION_FRAME_RESOLUTION": "Osprey bounds an animation by its pixels in all (--max-source-resolution)",
        "IGNORE_SSL_VERIFICATION": "Osprey always verifies sources' certificates",
        "S3_USE_DECRYPTION_CLIENT": "Osprey does not decrypt client-side encrypted S3 objects",
        "USE_SWIFT": "Osprey has no OpenStack Swift sources",
        "SOURCE_URL_ENCRYPTION_KEY": "Osprey does not decrypt source URLs (imgproxy Pro's /enc/ sources)",
    ]

    /// Variables Osprey passes over, and why that changes nothing served: named in one
    /// notice at start.
    package static let unhonoured: [String: String] = [
        "GRACEFUL_STOP_TIMEOUT": "Osprey finishes the requests in flight, however long",
        "WRITE_RESPONSE_TIMEOUT": "Osprey bounds a request by its whole deadline (--timeout)",
        "KEEP_ALIVE_TIMEOUT": "Osprey closes idle connections after --idle-timeout",
        "CLIENT_KEEP_ALIVE_TIMEOUT": "Osprey's source connections are libcurl's",
        "SO_REUSEPORT": "one Osprey process serves every core",
        "MAX_SVG_CHECK_BYTES": "Osprey recognises SVG in a source's first 512 bytes",
        "SANITIZE_SVG": "Osprey always sanitises SVG it answers as SVG",
        "SVG_UNLIMITED": "librsvg's limits on the XML it parses stay",
        "PNG_UNLIMITED": "Osprey's PNG decoder has its own limits",
        "PNG_INTERLACED": "Osprey writes PNG without interlacing (the same image)",
        "PNG_QUANTIZE": "Osprey writes PNG in full colour (the same image, larger)",
        "PNG_QUANTIZATION_COLORS": "Osprey writes PNG in full colour",
        "WEBP_EFFORT": "Osprey encodes WebP at libwebp's default effort",
        "WEBP_PRESET": "Osprey encodes WebP with libwebp's default preset",
        "ENFORCE_THUMBNAIL": "Osprey decodes the image itself, at the size asked",
        "USE_LINEAR_COLORSPACE": "Osprey resamples in its own colour space",
        "DISABLE_SHRINK_ON_LOAD": "Osprey always decodes at the smallest size that serves",
        "ETAG_BUSTER": "Osprey's ETags change whenever the answer's bytes or source do",
        "SOURCE_URL_QUERY_SEPARATOR": "Osprey reads local and S3 sources' paths whole",
        "REPORT_DOWNLOADING_ERRORS": "Osprey reports to no error service",
        "REPORT_IO_ERRORS": "Osprey reports to no error service",
        "FREE_MEMORY_INTERVAL": "Osprey returns memory as it frees it",
        "DOWNLOAD_BUFFER_SIZE": "Osprey sizes buffers by the response",
        "BUFFER_POOL_CALIBRATION_THRESHOLD": "Osprey sizes buffers by the response",
        "LOG_MEM_STATS": "Osprey does not log memory statistics",
        "FAIL_ON_DEPRECATION": "Osprey reads the deprecated names as their new ones",
        "PPROF_BIND": "Osprey serves no Go profiler",
        "VIPS_CACHE_TRACE": "Osprey does not use libvips",
        "VIPS_LEAK_CHECK": "Osprey does not use libvips",
        "SWIFT_ALLOWED_BUCKETS": "Osprey has no OpenStack Swift sources",
        "SWIFT_DENIED_BUCKETS": "Osprey has no OpenStack Swift sources",
        "SWIFT_AUTH_VERSION": "Osprey has no OpenStack Swift sources",
        "MALLOC": "Osprey's allocator is the C library's",
    ]

    /// Words in a variable's name that mark a setting restricting who may ask or what may be
    /// read: one Osprey does not know stops the start rather than leave the server open.
    static let restrictingWords = ["ALLOW", "DENY", "DENIED", "BLOCK", "RESTRICT", "KEY", "SALT", "SECRET", "SIGNATURE", "TRUSTED",
                                   "AUTH", "PASSWORD", "TOKEN", "MAX_", "LIMIT", "ONLY"]

    /// Whether the unknown variable `name` (without `IMGPROXY_`) may restrict access.
    static func mayRestrict(_ name: String) -> Bool {
        restrictingWords.contains { name.contains($0) }
    }

    /// The error-reporting and monitoring services imgproxy reports to and Osprey does not,
    /// by prefix (a notice each).
    package static let reporting: [String] = ["DATADOG_", "NEW_RELIC_", "OPEN_TELEMETRY_", "CLOUD_WATCH_", "BUGSNAG_", "HONEYBADGER_", "SENTRY_",
                                      "AIRBRAKE_", "SYSLOG_"]

    /// imgproxy Pro's settings, by prefix (a notice each).
    package static let proOnly: [String] = [
        "ENABLE_VIDEO_THUMBNAILS", "VIDEO_", "GIF2MP4", "AVIF_SUBSAMPLE", "JPEG_NO_SUBSAMPLE", "JPEG_TRELLIS_QUANT",
        "JPEG_OVERSHOOT_DERINGING", "JPEG_OPTIMIZE_SCANS", "JPEG_QUANT_TABLE", "PNG_QUANTIZATION_", "WEBP_COMPRESSION",
        "WEBP_SMART_SUBSAMPLE", "AUTOQUALITY_", "OBJECT_DETECTION_", "SMART_CROP_", "UNSHARP_MASKING_", "WATERMARKS_CACHE_SIZE",
        "FALLBACK_IMAGES_CACHE_SIZE", "CACHE_", "ENABLE_PDF", "PDF_", "PSD_", "FONTS_", "STRIP_METADATA_DPI",
        "USE_GIF_OPTIMIZER", "CUSTOM_REQUEST_HEADERS", "CUSTOM_RESPONSE_HEADERS", "CUSTOM_HEADERS_SEPARATOR", "SERVER_NAME",
        "LICENSE_", "BEST_FORMAT_", "CLASSIFICATION_", "ML_", "ALLOW_BYPASS_CACHE", "ENABLE_RAW_FORMATS",
        "FALLBACK_IMAGE_PREPROCESS_URL", "WATERMARK_PREPROCESS_URL", "HEALTH_CHECK_MESSAGE", "MAX_CHAINED_PIPELINES",
        "REQUEST_HEADERS_PASSTHROUGH", "RESPONSE_HEADERS_PASSTHROUGH", "COLOR_PROFILES_DIR",
    ]
}
