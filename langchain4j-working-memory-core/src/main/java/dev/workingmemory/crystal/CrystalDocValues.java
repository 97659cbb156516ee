package dev.workingmemory.crystal;

import dev.workingmemory.crystal.CrystalRecords.Stored;
import dev.workingmemory.internal.Wtf8;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.BytesRef;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A crystal and the seq of its record as one binary doc value of the {@link CrystalIndex}: everything the index
 * gives back of a crystal is read from it. Doc values are kept as written, so reading a search's hits copies their
 * bytes; read from stored fields, each hit decompressed its block (LZ4 with a preset dictionary), which was a quarter
 * of the Java time of a search that fetches 50 crystals. The index grows by about a tenth.
 *
 * <p>Thread-safe (stateless).
 */
final class CrystalDocValues {

    private static final int HAS_SOURCE = 1;
    private static final int HAS_CONTEXT = 2;

    private CrystalDocValues() {
    }

    static BytesRef encode(Stored stored) {
        Crystal crystal = stored.crystal();
        ByteBuffersDataOutput out = new ByteBuffersDataOutput();
        try {
            out.writeVLong(stored.seq());
            writeText(out, crystal.id());
            writeText(out, crystal.scope());
            writeText(out, crystal.kind().textName());
            out.writeZLong(CrystalIndex.micros(crystal.time()));
            out.writeLong(Double.doubleToLongBits(crystal.importance()));
            out.writeVInt(crystal.tags().size());
            for (String tag : crystal.tags()) {
                writeText(out, tag);
            }
            writeText(out, crystal.text());
            out.writeByte((byte) ((crystal.source() == null ? 0 : HAS_SOURCE)
                    | (crystal.context() == null ? 0 : HAS_CONTEXT)));
            if (crystal.source() != null) {
                writeText(out, crystal.source());
            }
            if (crystal.context() != null) {
                writeText(out, crystal.context());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Writing to memory failed", e); // ByteBuffersDataOutput does not throw
        }
        return new BytesRef(out.toArrayCopy());
    }

    static Stored decode(BytesRef value) throws IOException {
        ByteArrayDataInput in = new ByteArrayDataInput(value.bytes, value.offset, value.length);
        long seq = in.readVLong();
        String id = readText(in, value);
        String scope = readText(in, value);
        CrystalKind kind = CrystalKind.fromTextName(readText(in, value));
        long micros = in.readZLong();
        double importance = Double.longBitsToDouble(in.readLong());
        int tagCount = in.readVInt();
        List<String> tags = new ArrayList<>(tagCount);
        for (int i = 0; i < tagCount; i++) {
            tags.add(readText(in, value));
        }
        String text = readText(in, value);
        int present = in.readByte();
        String source = (present & HAS_SOURCE) != 0 ? readText(in, value) : null;
        String context = (present & HAS_CONTEXT) != 0 ? readText(in, value) : null;
        return new Stored(seq, new Crystal(id, scope, kind, CrystalIndex.instant(micros), importance, tags, text,
                source, context));
    }

    // WTF-8, not the DataOutput's UTF-8 (which writes U+FFFD for an unpaired surrogate): the same bytes for every
    // well-formed string, so indexes written before read the same, and a crystal's text comes back exactly
    private static void writeText(DataOutput out, String text) throws IOException {
        byte[] bytes = Wtf8.encode(text);
        out.writeVInt(bytes.length);
        out.writeBytes(bytes, bytes.length);
    }

    private static String readText(ByteArrayDataInput in, BytesRef value) throws IOException {
        int length = in.readVInt();
        int start = in.getPosition(); // of value.bytes, as the input reads that array in place
        if (length > value.offset + value.length - start) {
            throw new EOFException("A crystal's doc value ends inside a text of " + length + " bytes");
        }
        in.skipBytes(length);
        return Wtf8.decodeReplacing(value.bytes, start, length);
    }

    /** The value of one document (an id of the whole reader); a document without one is an index defect. */
    static Stored read(IndexReader reader, String field, int doc) throws IOException {
        return read(reader, field, new int[] {doc})[0];
    }

    /**
     * The values of the documents (ids of the whole reader, in any order), aligned with them: each segment's values
     * are read in document order, as doc values must be.
     */
    static Stored[] read(IndexReader reader, String field, int[] docs) throws IOException {
        Stored[] values = new Stored[docs.length];
        List<LeafReaderContext> leaves = reader.leaves();
        BinaryDocValues leafValues = null;
        int leafIndex = -1;
        for (int i : VectorKeys.inDocOrder(docs)) {
            int leaf = ReaderUtil.subIndex(docs[i], leaves);
            if (leaf != leafIndex) {
                leafIndex = leaf;
                leafValues = leaves.get(leaf).reader().getBinaryDocValues(field);
            }
            int doc = docs[i] - leaves.get(leaf).docBase;
            if (leafValues == null || !leafValues.advanceExact(doc)) {
                throw new CorruptIndexException("document " + doc + " holds no " + field, leaves.get(leaf).reader()
                        .toString());
            }
            values[i] = decode(leafValues.binaryValue());
        }
        return values;
    }
}
