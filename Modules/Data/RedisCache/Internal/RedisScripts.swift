/// The Lua scripts that keep a shared cache's bookkeeping inside Redis, each run atomically
/// (`EVAL`), so that every instance of a fleet sees one consistent cache.
///
/// Keys, under the prefix `P`:
/// - `P e:<key>`: a hash, `d` the bytes and `m` the metadata; it carries the entry's TTL.
/// - `P lru`: a sorted set of keys scored by `P clock` at their last access (oldest first).
/// - `P size` and `P src`: hashes from key to byte count and to source.
/// - `P s:<source>`: the set of keys of one source (its original and every variant).
/// - `P total`: the sum of the byte counts.
///
/// An entry whose hash Redis expired is still in the bookkeeping until it is looked up,
/// evicted, or swept by `usage`, so the total over-counts, never under-counts.
enum RedisScripts {
    /// Forgets one key everywhere: `drop(prefix, key)`.
    private static let drop = """
    local function drop(p, k)
      local size = tonumber(redis.call('HGET', p .. 'size', k) or '0')
      local src = redis.call('HGET', p .. 'src', k)
      if redis.call('ZREM', p .. 'lru', k) == 1 then redis.call('DECRBY', p .. 'total', size) end
      redis.call('HDEL', p .. 'size', k)
      redis.call('HDEL', p .. 'src', k)
      if src then redis.call('SREM', p .. 's:' .. src, k) end
      redis.call('DEL', p .. 'e:' .. k)
    end

    """

    /// ARGV: prefix, key, sliding TTL in ms (0: none). Returns `{bytes, metadata}` or nil,
    /// counting as an access.
    static let get = drop + """
    local p, k, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
    local found = redis.call('HMGET', p .. 'e:' .. k, 'd', 'm')
    if not found[1] then drop(p, k) return nil end
    redis.call('ZADD', p .. 'lru', redis.call('INCR', p .. 'clock'), k)
    if ttl > 0 then redis.call('PEXPIRE', p .. 'e:' .. k, ttl) end
    return found
    """

    /// ARGV: prefix, key, source, bytes, metadata, size limit, count limit, TTL in ms (0: none).
    /// Evicts least recently used entries until the new one fits, then stores it.
    static let store = drop + """
    local p, k, src, bytes, meta = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
    local limit, countLimit, ttl = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
    local size = string.len(bytes)
    drop(p, k)
    local total = tonumber(redis.call('GET', p .. 'total') or '0')
    local count = redis.call('ZCARD', p .. 'lru')
    while total + size > limit or count + 1 > countLimit do
      local oldest = redis.call('ZRANGE', p .. 'lru', 0, 0)[1]
      if not oldest then break end
      drop(p, oldest)
      total = tonumber(redis.call('GET', p .. 'total') or '0')
      count = count - 1
    end
    redis.call('HSET', p .. 'e:' .. k, 'd', bytes, 'm', meta)
    if ttl > 0 then redis.call('PEXPIRE', p .. 'e:' .. k, ttl) end
    redis.call('ZADD', p .. 'lru', redis.call('INCR', p .. 'clock'), k)
    redis.call('HSET', p .. 'size', k, size)
    redis.call('HSET', p .. 'src', k, src)
    redis.call('SADD', p .. 's:' .. src, k)
    redis.call('INCRBY', p .. 'total', size)
    return 1
    """

    /// ARGV: prefix, key, metadata. Replaces the metadata of an entry that exists (its TTL stays).
    static let updateMetadata = """
    local p, k = ARGV[1], ARGV[2]
    if redis.call('EXISTS', p .. 'e:' .. k) == 1 then redis.call('HSET', p .. 'e:' .. k, 'm', ARGV[3]) end
    return 1
    """

    /// ARGV: prefix, key.
    static let remove = drop + """
    drop(ARGV[1], ARGV[2])
    return 1
    """

    /// ARGV: prefix, source. Removes the source's original and every variant.
    static let removeSource = drop + """
    local p = ARGV[1]
    for _, k in ipairs(redis.call('SMEMBERS', p .. 's:' .. ARGV[2])) do drop(p, k) end
    redis.call('DEL', p .. 's:' .. ARGV[2])
    return 1
    """

    /// ARGV: prefix. Removes every entry and the bookkeeping.
    static let removeAll = drop + """
    local p = ARGV[1]
    for _, k in ipairs(redis.call('ZRANGE', p .. 'lru', 0, -1)) do drop(p, k) end
    redis.call('DEL', p .. 'total', p .. 'clock')
    return 1
    """

    /// ARGV: prefix. Sweeps entries Redis expired, then returns `{bytes, count}`.
    static let usage = drop + """
    local p = ARGV[1]
    for _, k in ipairs(redis.call('ZRANGE', p .. 'lru', 0, -1)) do
      if redis.call('EXISTS', p .. 'e:' .. k) == 0 then drop(p, k) end
    end
    return {tonumber(redis.call('GET', p .. 'total') or '0'), redis.call('ZCARD', p .. 'lru')}
    """
}
