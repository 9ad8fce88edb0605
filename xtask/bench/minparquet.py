"""A small Parquet writer in plain Python, for the lighteval workload generator: the bench's
Python has the standard library only (no pyarrow), and lighteval's details are Parquet.

It writes what evaltally and pyarrow read back as lighteval's own files: one row group, one
data page (v1) per column, levels in the RLE/bit-packed hybrid encoding (RLE runs only), values
PLAIN, pages Snappy-compressed (literal runs only: valid Snappy that a Snappy decoder copies
through, so reading costs what it costs on lighteval's files, minus the real compression).
Nested structs and lists (three-level `LIST` groups) are written as Arrow writes them.

    schema = group("schema", [
        group("doc", [leaf("id", STRING), leaf("gold_index", INT64)]),
        group("metric", [leaf("acc", DOUBLE)]),
        group("model_response", [list_of("text", leaf("element", STRING))]),
    ], repetition=None)
    write(path, schema, rows)   # rows: dicts as pyarrow.Table.from_pylist takes them
"""
import struct

# Physical types, repetitions, converted types, encodings and the codec (parquet.thrift).
BOOLEAN, INT64, DOUBLE, BYTE_ARRAY = 0, 2, 5, 6
STRING = "string"
REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
PLAIN, RLE = 0, 3
SNAPPY = 1
CONVERTED_UTF8, CONVERTED_LIST = 0, 3


class Node:
    def __init__(self, name, repetition, physical=None, string=False, children=None, kind="field", is_list=False):
        self.name, self.repetition, self.physical, self.string = name, repetition, physical, string
        self.children, self.kind, self.is_list = children or [], kind, is_list

    def leaves(self):
        return [self] if not self.children else [l for c in self.children for l in c.leaves()]


def leaf(name, physical, repetition=OPTIONAL, kind="field"):
    if physical == STRING:
        return Node(name, repetition, BYTE_ARRAY, string=True, kind=kind)
    return Node(name, repetition, physical, kind=kind)


def group(name, children, repetition=OPTIONAL):
    return Node(name, repetition, children=children)


def list_of(name, element):
    """`optional group name (LIST) { repeated group list { <element> } }`."""
    element.kind = "element"
    return Node(name, OPTIONAL, children=[Node("list", REPEATED, children=[element], kind="items")], is_list=True)


# ------------------------------------------------------------------ Dremel striping

def stripe(node, value, r, d, rep_depth, out):
    """Appends (repetition level, definition level, value) of `value` at `node` to each leaf's list."""
    if node.repetition == OPTIONAL:
        if value is None:
            for l in node.leaves():
                out[id(l)].append((r, d, None))
            return
        d += 1
    if node.repetition == REPEATED:
        items = value or []
        if not items:
            for l in node.leaves():
                out[id(l)].append((r, d, None))
            return
        for i, item in enumerate(items):
            inner(node, item, r if i == 0 else rep_depth + 1, d + 1, rep_depth + 1, out)
        return
    inner(node, value, r, d, rep_depth, out)


def inner(node, value, r, d, rep_depth, out):
    if not node.children:
        out[id(node)].append((r, d, value))
        return
    for child in node.children:
        if child.kind == "items" or child.kind == "element":
            v = value
        else:
            v = None if value is None else value.get(child.name)
        stripe(child, v, r, d, rep_depth, out)


def levels_of(root):
    """{leaf id: (max definition level, max repetition level, path)} below the root."""
    out = {}

    def walk(node, d, r, path):
        if node.repetition == OPTIONAL:
            d += 1
        elif node.repetition == REPEATED:
            d, r = d + 1, r + 1
        path = path + [node.name]
        if not node.children:
            out[id(node)] = (d, r, path)
        for c in node.children:
            walk(c, d, r, path)

    for c in root.children:
        walk(c, 0, 0, [])
    return out


# ------------------------------------------------------------------ encodings

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def rle(levels, max_level):
    """Levels as RLE runs of the hybrid encoding, prefixed by their length (a v1 data page)."""
    width = (max_level.bit_length() + 7) // 8
    out = bytearray()
    i = 0
    while i < len(levels):
        j = i
        while j < len(levels) and levels[j] == levels[i]:
            j += 1
        out += varint((j - i) << 1) + levels[i].to_bytes(width, "little")
        i = j
    return struct.pack("<I", len(out)) + bytes(out)


def plain(node, values):
    out = bytearray()
    for v in values:
        if node.physical == BYTE_ARRAY:
            b = v.encode("utf-8")
            out += struct.pack("<I", len(b)) + b
        elif node.physical == DOUBLE:
            out += struct.pack("<d", v)
        elif node.physical == INT64:
            out += struct.pack("<q", v)
        elif node.physical == BOOLEAN:
            raise ValueError("booleans are not written")
    return bytes(out)


def snappy(data):
    """Snappy of literal runs only (valid Snappy; no matches searched)."""
    out = bytearray(varint(len(data)))
    for at in range(0, len(data), 65536):
        chunk = data[at:at + 65536]
        n = len(chunk) - 1
        if n < 60:
            out.append(n << 2)
        elif n < 256:
            out += bytes([60 << 2, n])
        else:
            out += bytes([61 << 2]) + n.to_bytes(2, "little")
        out += chunk
    return bytes(out)


# ------------------------------------------------------------------ Thrift compact protocol

I32, I64, BINARY, LIST, STRUCT = 5, 6, 8, 9, 12


def thrift_struct(fields):
    """fields: [(id, type, value)] in id order; a STRUCT value is such a list, a LIST value
    (element type, [values])."""
    out = bytearray()
    last = 0
    for fid, ftype, value in fields:
        if value is None:
            continue
        delta = fid - last
        out.append((delta << 4) | ftype if 0 < delta <= 15 else ftype)
        if not 0 < delta <= 15:
            out += varint(zigzag(fid))
        last = fid
        out += thrift_value(ftype, value)
    out.append(0)
    return bytes(out)


def thrift_value(ftype, value):
    if ftype in (I32, I64):
        return varint(zigzag(value))
    if ftype == BINARY:
        b = value.encode("utf-8") if isinstance(value, str) else value
        return varint(len(b)) + b
    if ftype == STRUCT:
        return thrift_struct(value)
    if ftype == LIST:
        etype, items = value
        head = bytes([(len(items) << 4) | etype]) if len(items) < 15 else bytes([0xF0 | etype]) + varint(len(items))
        return head + b"".join(thrift_value(etype, v) for v in items)
    raise ValueError(ftype)


def schema_elements(root):
    out = []

    def walk(node, is_root):
        if node.children:
            out.append([
                (3, I32, None if is_root else node.repetition),
                (4, BINARY, node.name),
                (5, I32, len(node.children)),
                (6, I32, CONVERTED_LIST if node.is_list else None),
                (10, STRUCT, [(3, STRUCT, [])] if node.is_list else None),
            ])
            for c in node.children:
                walk(c, False)
        else:
            out.append([
                (1, I32, node.physical),
                (3, I32, node.repetition),
                (4, BINARY, node.name),
                (6, I32, CONVERTED_UTF8 if node.string else None),
                (10, STRUCT, [(1, STRUCT, [])] if node.string else None),
            ])

    walk(root, True)
    return out


# ------------------------------------------------------------------ the file

def write(path, root, rows):
    leaves = root.leaves()
    striped = {id(l): [] for l in leaves}
    for row in rows:
        inner(root, row, 0, 0, 0, striped)
    info = levels_of(root)
    body = bytearray(b"PAR1")
    chunks = []
    for l in leaves:
        max_def, max_rep, column = info[id(l)]
        triplets = striped[id(l)]
        page = bytearray()
        if max_rep:
            page += rle([t[0] for t in triplets], max_rep)
        if max_def:
            page += rle([t[1] for t in triplets], max_def)
        page += plain(l, [t[2] for t in triplets if t[1] == max_def])
        compressed = snappy(bytes(page))
        header = thrift_struct([
            (1, I32, 0),  # DATA_PAGE
            (2, I32, len(page)),
            (3, I32, len(compressed)),
            (5, STRUCT, [(1, I32, len(triplets)), (2, I32, PLAIN), (3, I32, RLE), (4, I32, RLE)]),
        ])
        offset = len(body)
        body += header + compressed
        chunks.append([
            (2, I64, len(body)),
            (3, STRUCT, [
                (1, I32, l.physical),
                (2, LIST, (I32, [PLAIN, RLE])),
                (3, LIST, (BINARY, column)),
                (4, I32, SNAPPY),
                (5, I64, len(triplets)),
                (6, I64, len(header) + len(page)),
                (7, I64, len(header) + len(compressed)),
                (9, I64, offset),
            ]),
        ])
    footer = thrift_struct([
        (1, I32, 1),
        (2, LIST, (STRUCT, schema_elements(root))),
        (3, I64, len(rows)),
        (4, LIST, (STRUCT, [[(1, LIST, (STRUCT, chunks)), (2, I64, len(body) - 4), (3, I64, len(rows))]])),
        (6, BINARY, "evaltally xtask/bench/minparquet.py"),
    ])
    with open(path, "wb") as f:
        f.write(bytes(body) + footer + struct.pack("<I", len(footer)) + b"PAR1")
