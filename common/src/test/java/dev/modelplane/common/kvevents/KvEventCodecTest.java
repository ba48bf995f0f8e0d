package dev.modelplane.common.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEvent.Unknown;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/** What servers other than vLLM's current release send, and what no server should: read, or refused with a reason. */
class KvEventCodecTest {

  private interface Body {
    void write(MessageBufferPacker p) throws IOException;
  }

  private static byte[] pack(Body body) throws IOException {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      body.write(p);
      return p.toByteArray();
    }
  }

  @Test
  void aShortArrayEventAsOlderServersSendItReadsWithTheMissingFieldsUnset() throws Exception {
    // vLLM 0.9: [tag, hashes, parent, tokens, block_size, lora_id]; llm-d-inference-sim sends 0 for "no parent".
    byte[] payload = pack(p -> {
      p.packArrayHeader(2).packDouble(1.5).packArrayHeader(1).packArrayHeader(6).packString("BlockStored");
      p.packArrayHeader(1).packLong(42).packLong(0).packArrayHeader(2).packInt(9).packInt(10).packInt(2).packNil();
    });
    KvEventBatch batch = KvEventCodec.decode(payload);
    assertThat(batch.dataParallelRank()).isNull();
    BlockStored s = (BlockStored) batch.events().getFirst();
    assertThat(s.blockHashes()).containsExactly(42L);
    assertThat(s.parentBlockHash()).isEqualTo(0L);
    assertThat(s.tokenIds()).containsExactly(9, 10);
    assertThat(s.medium()).isNull();
    assertThat(s.loraName()).isNull();
    assertThat(s.extraKeys()).isNull();
  }

  @Test
  void fieldsAServerAddedLaterAreSkippedInBothLayouts() throws Exception {
    byte[] array = pack(p -> {
      p.packArrayHeader(4).packDouble(1).packArrayHeader(1).packArrayHeader(6).packString("BlockRemoved");
      p.packArrayHeader(1).packLong(7).packString("CPU").packInt(1).packString("locality").packMapHeader(0);
      p.packInt(2).packString("a fourth batch element");
    });
    BlockRemoved r = (BlockRemoved) KvEventCodec.decode(array).events().getFirst();
    assertThat(r.blockHashes()).containsExactly(7L);
    assertThat(r.medium()).isEqualTo("CPU");
    assertThat(r.groupIdx()).isEqualTo(1);

    byte[] map = pack(p -> {
      p.packArrayHeader(3).packDouble(1).packArrayHeader(1).packMapHeader(3).packString("locality")
          .packString("rack-1").packString("type").packString("BlockRemoved").packString("block_hashes");
      p.packArrayHeader(1).packLong(8).packInt(0);
    });
    assertThat(((BlockRemoved) KvEventCodec.decode(map).events().getFirst()).blockHashes()).containsExactly(8L);
  }

  @Test
  void aWholeDigestSentAsBytesReadsAsItsLastEightBytes() throws Exception {
    byte[] digest = HexFormat.of().parseHex("0a99040f25d8a5f22275b867f403918da98c9d140eaea10f5319d4d1d84429df");
    byte[] payload = pack(p -> {
      p.packArrayHeader(3).packDouble(1).packArrayHeader(1).packArrayHeader(3).packString("BlockRemoved");
      p.packArrayHeader(1).packBinaryHeader(32).writePayload(digest);
      p.packNil().packInt(0);
    });
    assertThat(((BlockRemoved) KvEventCodec.decode(payload).events().getFirst()).blockHashes())
        .containsExactly(VllmBlockHasher.wireValue(digest));
  }

  @Test
  void aSignedNegativeHashKeepsItsBits() throws Exception {
    byte[] payload = pack(p -> {
      p.packArrayHeader(3).packDouble(1).packArrayHeader(1).packArrayHeader(3).packString("BlockRemoved");
      p.packArrayHeader(1).packLong(-5).packNil().packNil();
    });
    assertThat(((BlockRemoved) KvEventCodec.decode(payload).events().getFirst()).blockHashes()).containsExactly(-5L);
  }

  @Test
  void aBatchWrittenAsAMapAndAnUnknownEventTypeAreRead() throws Exception {
    byte[] payload = pack(p -> {
      p.packMapHeader(4).packString("ts").packDouble(2.5).packString("extra").packBoolean(true);
      p.packString("events").packArrayHeader(1).packMapHeader(2).packString("type").packString("BlockMoved")
          .packString("to").packString("disk");
      p.packString("data_parallel_rank").packInt(2);
    });
    KvEventBatch batch = KvEventCodec.decode(payload);
    assertThat(batch.timestamp()).isEqualTo(2.5);
    assertThat(batch.dataParallelRank()).isEqualTo(2);
    assertThat(batch.events()).containsExactly(new Unknown("BlockMoved"));
  }

  @Test
  void malformedPayloadsAreRefusedWithAReason() throws Exception {
    assertRefused(new byte[0], "not a MessagePack event batch");
    assertRefused(pack(p -> p.packString("hello")), "a batch is an array or a map, not STRING");
    assertRefused(pack(p -> p.packArrayHeader(1).packDouble(1)), "a batch array needs [timestamp, events]");
    assertRefused(pack(p -> p.packMapHeader(1).packString("ts").packDouble(1)), "needs \"ts\" and \"events\"");
    assertRefused(pack(p -> p.packArrayHeader(2).packString("now").packArrayHeader(0)), "a timestamp is a number");
    // A header that claims more elements than bytes remain is refused before anything is allocated.
    assertRefused(HexFormat.of().parseHex("92cb3ff0000000000000dd7fffffff"), "exceeds the 0 bytes left");
    assertRefused(pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packMapHeader(1)
        .packString("block_hashes").packArrayHeader(0)), "an event map without \"type\"");
    assertRefused(pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(5)
        .packString("BlockStored").packArrayHeader(1).packNil().packNil().packArrayHeader(0).packInt(4)),
        "a block hash is nil");
    assertRefused(pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(4)
        .packString("BlockStored").packArrayHeader(0).packNil().packArrayHeader(1).packInt(-1)),
        "token id -1 out of range");
    assertRefused(pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(4)
        .packString("BlockStored").packArrayHeader(0).packNil().packArrayHeader(0)),
        "BlockStored without a positive block_size");
    assertRefused(pack(p -> {
      p.packArrayHeader(2).packDouble(1).packArrayHeader(0);
      p.packInt(1);
    }), "trailing bytes after the batch");
    byte[] deep = pack(p -> {
      p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packMapHeader(2).packString("type")
          .packString("BlockStored").packString("extra_keys").packArrayHeader(1);
      for (int i = 0; i < 20; i++) {
        p.packArrayHeader(1);
      }
      p.packNil();
    });
    assertRefused(deep, "nested deeper than 8");
  }

  @Test
  void randomBytesAndTruncationsNeverEscapeAsAnythingButARefusal() {
    byte[] good = KvEventCodec.encode(KvEventCodecGoldenTest.cases().get("mixed"), EventLayout.MAP);
    Random random = new Random(7);
    for (int i = 0; i < 5_000; i++) {
      byte[] bytes = i % 2 == 0 ? java.util.Arrays.copyOf(good, random.nextInt(good.length))
          : mutate(good, random);
      try {
        KvEventCodec.decode(bytes);
      } catch (MalformedEventException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }

  private static byte[] mutate(byte[] good, Random random) {
    byte[] copy = good.clone();
    for (int j = 0; j < 3; j++) {
      copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
    }
    return copy;
  }

  @Test
  void tokenIdsUseTheWholeUnsigned32BitRange() throws Exception {
    int big = (int) 4_000_000_000L;
    KvEventBatch batch = new KvEventBatch(1, List.of(new BlockStored(new long[] {1}, null, new int[] {big, 7}, 2,
        null, "GPU", null, null, null)), 0);
    byte[] bytes = KvEventCodec.encode(batch, EventLayout.ARRAY);
    assertThat(HexFormat.of().formatHex(bytes)).contains("92ceee6b280007"); // uint32 4e9, then fixint 7
    assertThat(((BlockStored) KvEventCodec.decode(bytes).events().getFirst()).tokenIds()).containsExactly(big, 7);
    assertRefused(pack(p -> p.packArrayHeader(2).packDouble(1).packArrayHeader(1).packArrayHeader(4)
        .packString("BlockStored").packArrayHeader(0).packNil().packArrayHeader(1).packLong(1L << 32)),
        "token id 4294967296 out of range");
  }

  @Test
  void extraKeysOfAnUnencodableTypeAreRefusedWhenWriting() {
    KvEventBatch batch = new KvEventBatch(1, List.of(new BlockStored(new long[] {1}, null, new int[] {1}, 1, null,
        "GPU", null, List.of(List.of(1.5)), 0)), 0);
    assertThatThrownBy(() -> KvEventCodec.encode(batch, EventLayout.ARRAY))
        .hasMessageContaining("extra key of type Double cannot be encoded");
  }

  private static void assertRefused(byte[] payload, String reason) {
    assertThatThrownBy(() -> KvEventCodec.decode(payload)).isInstanceOf(MalformedEventException.class)
        .hasMessageContaining(reason);
  }
}
