-- ndnflow-ndn.lua: a Wireshark / tshark dissector for what ndnflow's captures hold
-- (docs/wire-format.md, "Captures"): NDNLPv2 link frames and NDN packet format v0.3 Interests,
-- Data and Nacks, on UDP port 6363 (NFD's UDP face port).
--
-- TLV numbers: NDN packet format v0.3, NDNLPv2, and ndnflow's own link-header fields, all as
-- listed in docs/wire-format.md. Written for Wireshark 4.0 (Lua 5.2).
--
-- Load it for one run:   tshark -X lua_script:tools/wireshark/ndnflow-ndn.lua -r FILE.pcap
-- or for good: copy it into Wireshark's personal plugin folder (Help > About Wireshark >
-- Folders > Personal Lua Plugins; ~/.local/lib/wireshark/plugins on Linux).
--
-- Display filter fields start with "ndnflow." (ndnflow.name, ndnflow.lp.congestion_mark, ...);
-- the protocol column says NDN. A frame whose TLV lengths do not fit raises the expert item
-- ndnflow.malformed.

local ndn = Proto("ndnflow", "Named Data Networking (ndnflow)")

local NACK_REASONS = { [0] = "None", [50] = "Congestion", [100] = "Duplicate", [150] = "NoRoute" }
local SIGNATURE_TYPES = {
    [0] = "DigestSha256", [1] = "SignatureSha256WithRsa", [3] = "SignatureSha256WithEcdsa",
    [4] = "SignatureHmacWithSha256", [5] = "SignatureEd25519", [200] = "Null",
}
local CONTENT_TYPES = { [0] = "BLOB", [1] = "LINK", [2] = "KEY", [3] = "NACK" }

local f = {
    packet = ProtoField.string("ndnflow.packet", "Packet"),
    tlv_type = ProtoField.uint32("ndnflow.tlv_type", "TLV-TYPE"),
    name = ProtoField.string("ndnflow.name", "Name"),
    component = ProtoField.string("ndnflow.name.component", "Component"),
    segment = ProtoField.uint64("ndnflow.name.segment", "Segment"),
    can_be_prefix = ProtoField.bool("ndnflow.can_be_prefix", "CanBePrefix"),
    must_be_fresh = ProtoField.bool("ndnflow.must_be_fresh", "MustBeFresh"),
    nonce = ProtoField.uint32("ndnflow.nonce", "Nonce", base.HEX),
    lifetime = ProtoField.uint64("ndnflow.lifetime", "InterestLifetime (ms)"),
    hop_limit = ProtoField.uint8("ndnflow.hop_limit", "HopLimit"),
    app_parameters = ProtoField.uint32("ndnflow.app_parameters_length", "ApplicationParameters length"),
    content_type = ProtoField.uint64("ndnflow.content_type", "ContentType"),
    freshness = ProtoField.uint64("ndnflow.freshness_period", "FreshnessPeriod (ms)"),
    final_block_id = ProtoField.string("ndnflow.final_block_id", "FinalBlockId"),
    content_length = ProtoField.uint32("ndnflow.content_length", "Content length"),
    signature_type = ProtoField.uint64("ndnflow.signature_type", "SignatureType"),
    signature_length = ProtoField.uint32("ndnflow.signature_value_length", "SignatureValue length"),
    lp = ProtoField.none("ndnflow.lp", "LpPacket"),
    sequence = ProtoField.uint64("ndnflow.lp.sequence", "Sequence"),
    frag_index = ProtoField.uint64("ndnflow.lp.frag_index", "FragIndex"),
    frag_count = ProtoField.uint64("ndnflow.lp.frag_count", "FragCount"),
    fragment_length = ProtoField.uint32("ndnflow.lp.fragment_length", "Fragment length"),
    pit_token = ProtoField.bytes("ndnflow.lp.pit_token", "PitToken"),
    nack_reason = ProtoField.uint64("ndnflow.lp.nack_reason", "NackReason"),
    congestion_mark = ProtoField.uint64("ndnflow.lp.congestion_mark", "CongestionMark"),
    ack = ProtoField.uint64("ndnflow.lp.ack", "Ack"),
    tx_sequence = ProtoField.uint64("ndnflow.lp.tx_sequence", "TxSequence"),
    non_discovery = ProtoField.none("ndnflow.lp.non_discovery", "NonDiscovery"),
    announced_prefix = ProtoField.string("ndnflow.lp.announced_prefix", "PrefixAnnouncement: prefix"),
    expiration_period = ProtoField.uint64("ndnflow.lp.expiration_period", "PrefixAnnouncement: ExpirationPeriod (ms)"),
    hop_count = ProtoField.uint64("ndnflow.lp.hop_count", "HopCount (ndnflow)"),
    path_id = ProtoField.uint64("ndnflow.lp.path_id", "PathId (ndnflow)", base.HEX),
    trajectory_id = ProtoField.uint64("ndnflow.lp.trajectory_id", "TrajectoryId (ndnflow)", base.HEX),
    tag = ProtoField.uint64("ndnflow.lp.tag", "Tag (ndnflow TagStack)"),
    flags = ProtoField.uint64("ndnflow.lp.flags", "Flags (ndnflow)", base.HEX),
    mircc_rate = ProtoField.uint64("ndnflow.lp.mircc_rate", "MirccRate (ndnflow, bit/s)"),
    mircc_rate2 = ProtoField.uint64("ndnflow.lp.mircc_rate2", "MirccRate2 (ndnflow, bit/s)"),
    unknown = ProtoField.uint32("ndnflow.unknown_field", "Unknown field (TLV-TYPE)"),
}
ndn.fields = {}
for _, field in pairs(f) do
    table.insert(ndn.fields, field)
end

local malformed = ProtoExpert.new("ndnflow.malformed", "Malformed NDN TLV", expert.group.MALFORMED, expert.severity.ERROR)
ndn.experts = { malformed }

-- TLV reading ------------------------------------------------------------------------------

-- A VAR-NUMBER at `off`: its value (nil when it does not fit in `limit`) and its width.
local function var_number(tvb, off, limit)
    if off >= limit then return nil, 0 end
    local first = tvb(off, 1):uint()
    local width = ({ [253] = 2, [254] = 4, [255] = 8 })[first]
    if not width then return first, 1 end
    if off + 1 + width > limit then return nil, 0 end
    return tvb(off + 1, width):uint64():tonumber(), 1 + width
end

-- The TLV element at `off` inside [off, limit): { typ, value offset, value length, end }, or nil
-- when its type or length does not fit.
local function element(tvb, off, limit)
    local typ, tw = var_number(tvb, off, limit)
    if not typ then return nil end
    local len, lw = var_number(tvb, off + tw, limit)
    if not len then return nil end
    local value = off + tw + lw
    if value + len > limit then return nil end
    return { typ = typ, value = value, len = len, stop = value + len, start = off }
end

-- Calls `each(el)` for every element in [off, limit); false when one is malformed.
local function each_element(tvb, off, limit, each)
    while off < limit do
        local el = element(tvb, off, limit)
        if not el then return false end
        each(el)
        off = el.stop
    end
    return true
end

local function range(tvb, el) return tvb(el.start, el.stop - el.start) end

-- A NonNegativeInteger value (1, 2, 4 or 8 octets) as a field; returns it as a Lua number.
local function add_number(tree, field, tvb, el)
    if el.len == 0 or el.len > 8 then return nil end
    local value = tvb(el.value, el.len):uint64()
    tree:add(field, range(tvb, el), value)
    return value:tonumber()
end

-- Names -------------------------------------------------------------------------------------

local KEYWORDS = { [50] = "seg", [52] = "off", [54] = "v", [56] = "t", [58] = "seq" }
local DIGESTS = { [1] = "sha256digest", [2] = "params-sha256" }

local function escaped(bytes)
    local out = {}
    for i = 0, bytes:len() - 1 do
        local b = bytes:get_index(i)
        local c = string.char(b)
        if c:match("[A-Za-z0-9%-%._~]") then
            out[#out + 1] = c
        else
            out[#out + 1] = string.format("%%%02X", b)
        end
    end
    return table.concat(out)
end

-- A name component in URI form, and its segment number if it is a SegmentNameComponent.
local function component_uri(tvb, el)
    local bytes = el.len > 0 and tvb(el.value, el.len):bytes() or ByteArray.new()
    local keyword = KEYWORDS[el.typ]
    if keyword and el.len <= 8 then
        local n = el.len > 0 and tvb(el.value, el.len):uint64():tonumber() or 0
        return string.format("%s=%d", keyword, n), el.typ == 50 and n or nil
    end
    if DIGESTS[el.typ] then return DIGESTS[el.typ] .. "=" .. bytes:tohex(true), nil end
    if el.typ == 8 then return escaped(bytes), nil end
    return string.format("%d=%s", el.typ, escaped(bytes)), nil
end

-- Adds the Name element `el`; returns its URI.
local function add_name(tree, tvb, el)
    local parts = {}
    local components = {}
    local ok = each_element(tvb, el.value, el.stop, function(c)
        local uri, segment = component_uri(tvb, c)
        parts[#parts + 1] = uri
        components[#components + 1] = { el = c, uri = uri, segment = segment and tvb(c.value, c.len):uint64() }
    end)
    local uri = "/" .. table.concat(parts, "/")
    local sub = tree:add(f.name, range(tvb, el), uri)
    for _, c in ipairs(components) do
        sub:add(f.component, range(tvb, c.el), c.uri)
        if c.segment then sub:add(f.segment, range(tvb, c.el), c.segment) end
    end
    if not ok then sub:add_proto_expert_info(malformed, "a name component's length runs past the Name") end
    return uri
end

-- Network packets ---------------------------------------------------------------------------

local function dissect_interest(tree, tvb, el)
    local sub = tree:add(ndn, range(tvb, el), "Interest")
    local name = "?"
    local ok = each_element(tvb, el.value, el.stop, function(e)
        if e.typ == 7 then name = add_name(sub, tvb, e)
        elseif e.typ == 33 then sub:add(f.can_be_prefix, range(tvb, e), true)
        elseif e.typ == 18 then sub:add(f.must_be_fresh, range(tvb, e), true)
        elseif e.typ == 10 and e.len == 4 then sub:add(f.nonce, tvb(e.value, 4))
        elseif e.typ == 12 then add_number(sub, f.lifetime, tvb, e)
        elseif e.typ == 34 and e.len == 1 then sub:add(f.hop_limit, tvb(e.value, 1))
        elseif e.typ == 36 then sub:add(f.app_parameters, range(tvb, e), e.len)
        else sub:add(f.unknown, range(tvb, e), e.typ) end
    end)
    if not ok then sub:add_proto_expert_info(malformed, "an Interest element's length runs past the Interest") end
    return name, ok
end

local function dissect_meta_info(tree, tvb, el)
    return each_element(tvb, el.value, el.stop, function(e)
        if e.typ == 24 then
            local t = add_number(tree, f.content_type, tvb, e)
            if t and CONTENT_TYPES[t] then tree:append_text(" (" .. CONTENT_TYPES[t] .. ")") end
        elseif e.typ == 25 then add_number(tree, f.freshness, tvb, e)
        elseif e.typ == 26 then
            local c = element(tvb, e.value, e.stop)
            if c then tree:add(f.final_block_id, range(tvb, e), (component_uri(tvb, c))) end
        else tree:add(f.unknown, range(tvb, e), e.typ) end
    end)
end

local function dissect_data(tree, tvb, el)
    local sub = tree:add(ndn, range(tvb, el), "Data")
    local name = "?"
    local meta_ok = true
    local ok = each_element(tvb, el.value, el.stop, function(e)
        if e.typ == 7 then name = add_name(sub, tvb, e)
        elseif e.typ == 20 then meta_ok = dissect_meta_info(sub, tvb, e)
        elseif e.typ == 21 then sub:add(f.content_length, range(tvb, e), e.len)
        elseif e.typ == 22 then
            local st = element(tvb, e.value, e.stop)
            if st and st.typ == 27 then
                local t = add_number(sub, f.signature_type, tvb, st)
                if t and SIGNATURE_TYPES[t] then sub:append_text(", " .. SIGNATURE_TYPES[t]) end
            end
        elseif e.typ == 23 then sub:add(f.signature_length, range(tvb, e), e.len)
        else sub:add(f.unknown, range(tvb, e), e.typ) end
    end)
    ok = ok and meta_ok
    if not ok then sub:add_proto_expert_info(malformed, "a Data element's length runs past the Data") end
    return name, ok
end

-- The Interest or Data element `el`: ("Interest" | "Data", name, well-formed?).
local function dissect_network(tree, tvb, el)
    if el.typ == 5 then return "Interest", dissect_interest(tree, tvb, el) end
    if el.typ == 6 then return "Data", dissect_data(tree, tvb, el) end
    tree:add_proto_expert_info(malformed, string.format("TLV-TYPE %d is neither Interest (5) nor Data (6)", el.typ))
    return nil, "?", false
end

-- NDNLPv2 -----------------------------------------------------------------------------------

local LP_NUMBERS = {
    [81] = f.sequence, [82] = f.frag_index, [83] = f.frag_count, [832] = f.congestion_mark,
    [836] = f.ack, [840] = f.tx_sequence, [856] = f.hop_count, [860] = f.path_id,
    [864] = f.trajectory_id, [876] = f.flags, [880] = f.mircc_rate, [884] = f.mircc_rate2,
}

-- PrefixAnnouncement (848) in ndnflow's encoding: { Name, ExpirationPeriod (109) }
-- (docs/wire-format.md); the name is shown as a string so that it is not taken for the packet's.
local function dissect_announcement(tree, tvb, el, notes)
    each_element(tvb, el.value, el.stop, function(e)
        if e.typ == 7 then
            local parts = {}
            each_element(tvb, e.value, e.stop, function(c) parts[#parts + 1] = (component_uri(tvb, c)) end)
            local uri = "/" .. table.concat(parts, "/")
            tree:add(f.announced_prefix, range(tvb, e), uri)
            notes[#notes + 1] = "announces " .. uri
        elseif e.typ == 109 then add_number(tree, f.expiration_period, tvb, e)
        else tree:add(f.unknown, range(tvb, e), e.typ) end
    end)
end

-- The LpPacket `el`: what it carries, the name, whether it is well-formed, and notes for Info.
local function dissect_lp(tree, tvb, el)
    local sub = tree:add(f.lp, range(tvb, el))
    local lp = { notes = {} }
    local ok = each_element(tvb, el.value, el.stop, function(e)
        local numeric = LP_NUMBERS[e.typ]
        if numeric then
            lp[e.typ] = add_number(sub, numeric, tvb, e)
        elseif e.typ == 80 then lp.fragment = e
        elseif e.typ == 98 then sub:add(f.pit_token, range(tvb, e))
        elseif e.typ == 800 then
            lp.nack = 0
            local r = element(tvb, e.value, e.stop)
            if r and r.typ == 801 then lp.nack = add_number(sub, f.nack_reason, tvb, r) or 0 end
        elseif e.typ == 868 then
            each_element(tvb, e.value, e.stop, function(t) add_number(sub, f.tag, tvb, t) end)
        elseif e.typ == 844 then
            sub:add(f.non_discovery, range(tvb, e))
            lp.notes[#lp.notes + 1] = "NonDiscovery"
        elseif e.typ == 848 then
            dissect_announcement(sub, tvb, e, lp.notes)
        else sub:add(f.unknown, range(tvb, e), e.typ) end
    end)
    if not ok then
        sub:add_proto_expert_info(malformed, "a link-header field's length runs past the LpPacket")
        return "LpPacket", "?", false, lp.notes
    end
    if lp[832] and lp[832] > 0 then lp.notes[#lp.notes + 1] = "CongestionMark=" .. lp[832] end
    if not lp.fragment then return "IDLE", "", true, lp.notes end
    local e = lp.fragment
    sub:add(f.fragment_length, range(tvb, e), e.len)
    local count = lp[83] or 1
    if count > 1 then
        lp.notes[#lp.notes + 1] = string.format("fragment %d/%d", lp[82] or 0, count)
        if (lp[82] or 0) > 0 then return "Fragment", "", true, lp.notes end
        -- Fragment 0 starts with the packet's type and length, then its Name: shown when the
        -- Name lies whole in this piece.
        local typ, tw = var_number(tvb, e.value, e.stop)
        local _, lw = var_number(tvb, e.value + tw, e.stop)
        local kind = ({ [5] = "Interest", [6] = "Data" })[typ]
        local first = kind and element(tvb, e.value + tw + lw, e.stop)
        local name = (first and first.typ == 7) and add_name(sub, tvb, first) or ""
        return kind and ("Fragment of " .. kind) or "Fragment", name, true, lp.notes
    end
    local inner = element(tvb, e.value, e.stop)
    if not inner or inner.stop ~= e.stop then
        sub:add_proto_expert_info(malformed, "the Fragment does not hold exactly one packet")
        return "LpPacket", "?", false, lp.notes
    end
    local kind, name, well = dissect_network(tree, tvb, inner)
    if lp.nack then
        kind = "Nack"
        lp.notes[#lp.notes + 1] = "reason " .. (NACK_REASONS[lp.nack] or tostring(lp.nack))
    end
    return kind, name, well, lp.notes
end

-- The dissector -----------------------------------------------------------------------------

function ndn.dissector(tvb, pinfo, tree)
    pinfo.cols.protocol = "NDN"
    local top = tree:add(ndn, tvb(), "Named Data Networking (ndnflow)")
    local el = element(tvb, 0, tvb:len())
    local kind, name, ok, notes = nil, "?", false, {}
    if el and el.stop == tvb:len() then
        top:add(f.tlv_type, tvb(0, 1), el.typ)
        if el.typ == 100 then
            kind, name, ok, notes = dissect_lp(top, tvb, el)
        else
            kind, name, ok = dissect_network(top, tvb, el)
        end
    else
        top:add_proto_expert_info(malformed, "the datagram is not one whole TLV element")
    end
    kind = kind or "Malformed"
    top:add(f.packet, tvb(), kind)
    local info = kind .. (name ~= "" and (" " .. name) or "")
    if #notes > 0 then info = info .. " [" .. table.concat(notes, ", ") .. "]" end
    pinfo.cols.info = info
    return tvb:len()
end

DissectorTable.get("udp.port"):add(6363, ndn)
