// The umbrella: one import for the whole library. A consumer who needs only one part
// (the codecs, the memory cache) depends on that product alone instead. The Redis tier is
// not in it: a fleet adds the OspreyRedisCache product and passes its cache as sharedCache.
@_exported import OspreyCodec
@_exported import OspreyDiskCache
@_exported import OspreyDomain
@_exported import OspreyMemoryCache
@_exported import OspreyNetwork
@_exported import OspreyPixels
@_exported import OspreyProcessing
