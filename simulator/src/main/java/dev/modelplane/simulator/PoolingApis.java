package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * vLLM's pooling endpoints: {@code /v1/embeddings} (deterministic unit vectors derived from the token ids) and the
 * cross-encoder endpoints {@code /rerank} (also {@code /v1/rerank}, {@code /v2/rerank}; Jina's and Cohere's
 * shape: a {@code query}, its {@code documents}, {@code top_n}) and {@code /score} (also {@code /v1/score}:
 * {@code text_1} against {@code text_2}, one against many or pairwise). A pair is tokenized as the query's tokens
 * followed by the document's, and prefilled as an engine request of its own. Its score is deterministic: the cosine
 * of the two texts' simulated embeddings, mapped to [0, 1].
 */
final class PoolingApis {
  private static final int SCORE_DIMENSIONS = 64;

  private PoolingApis() {
  }

  /** vLLM's {@code /v1/embeddings}: one deterministic unit vector per input, after the inputs' prefill. */
  static Rank.Pooled embeddings(Rank rank, JsonNode body) throws CompletionRequest.RequestException {
    String model = rank.modelOf(body);
    JsonNode input = body.get("input");
    List<int[]> inputs = new ArrayList<>();
    if (input == null || input.isNull()) {
      throw new CompletionRequest.RequestException(ApiError.badRequest("'input' is required.", "input"));
    } else if (input.isTextual()) {
      inputs.add(rank.tokenizer.encode(input.asText(), true));
    } else if (input.isArray() && !input.isEmpty() && input.get(0).isIntegralNumber()) {
      inputs.add(Rank.ids(input));
    } else if (input.isArray()) {
      for (JsonNode item : input) {
        if (item.isTextual()) {
          inputs.add(rank.tokenizer.encode(item.asText(), true));
        } else if (item.isArray()) {
          inputs.add(Rank.ids(item));
        } else {
          throw new CompletionRequest.RequestException(ApiError.badRequest(
              "'input' must be a string, a list of strings, or token ids.", "input"));
        }
      }
    } else {
      throw new CompletionRequest.RequestException(ApiError.badRequest(
          "'input' must be a string, a list of strings, or token ids.", "input"));
    }
    if (inputs.isEmpty()) {
      // vLLM refuses an empty batch when it builds the request; with no input to prefill, nothing would answer it
      throw new CompletionRequest.RequestException(ApiError.badRequest("'input' must not be empty.", "input"));
    }
    int dims = body.path("dimensions").asInt(rank.config.defaultEmbeddingDimensions());
    if (dims < 1 || dims > 65536) {
      throw new CompletionRequest.RequestException(ApiError.badRequest("'dimensions' must be within 1-65536.",
          "dimensions"));
    }
    boolean base64 = "base64".equals(body.path("encoding_format").asText("float"));
    ObjectNode root = Rank.JSON.createObjectNode().put("object", "list");
    ArrayNode data = root.putArray("data");
    int total = 0;
    for (int i = 0; i < inputs.size(); i++) {
      float[] v = embedding(inputs.get(i), dims);
      total += inputs.get(i).length;
      ObjectNode e = data.addObject().put("object", "embedding").put("index", i);
      if (base64) {
        ByteBuffer buf = ByteBuffer.allocate(dims * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
          buf.putFloat(f);
        }
        e.put("embedding", Base64.getEncoder().encodeToString(buf.array()));
      } else {
        ArrayNode arr = e.putArray("embedding");
        for (float f : v) {
          arr.add(f);
        }
      }
    }
    root.put("model", model);
    root.putObject("usage").put("prompt_tokens", total).put("total_tokens", total);
    return new Rank.Pooled(rank.poolingAdapter(model, inputs), inputs, root.toString());
  }

  /** A deterministic unit vector: the normalised sum of one pseudo-random vector per token id. */
  static float[] embedding(int[] ids, int dims) {
    double[] acc = new double[dims];
    for (int id : ids) {
      SplittableRandom r = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
      for (int d = 0; d < dims; d++) {
        acc[d] += r.nextDouble(-1, 1);
      }
    }
    double norm = 0;
    for (double a : acc) {
      norm += a * a;
    }
    norm = norm == 0 ? 1 : Math.sqrt(norm);
    float[] out = new float[dims];
    for (int d = 0; d < dims; d++) {
      out[d] = (float) (acc[d] / norm);
    }
    return out;
  }

  /** {@code /rerank}: results by descending relevance, the first {@code top_n} (all when 0 or absent). */
  static Rank.Pooled rerank(Rank rank, JsonNode body) throws CompletionRequest.RequestException {
    requireObject(body);
    JsonNode query = body.get("query");
    if (query == null || !query.isTextual()) {
      throw bad("'query' must be a string.", "query");
    }
    List<String> documents = texts(body.get("documents"), "documents");
    if (documents.isEmpty()) {
      throw bad("'documents' must be a non-empty list of strings.", "documents");
    }
    Integer topN = CompletionRequest.optionalInt(body, "top_n");
    List<int[]> prompts = new ArrayList<>();
    List<ObjectNode> results = new ArrayList<>();
    int total = 0;
    for (int i = 0; i < documents.size(); i++) {
      int[] ids = pair(rank, query.asText(), documents.get(i));
      prompts.add(ids);
      total += ids.length;
      ObjectNode r = Rank.JSON.createObjectNode().put("index", i);
      r.putObject("document").put("text", documents.get(i));
      r.put("relevance_score", score(rank, query.asText(), documents.get(i)));
      results.add(r);
    }
    results.sort(Comparator.comparingDouble((ObjectNode r) -> -r.get("relevance_score").asDouble()));
    int keep = topN == null || topN <= 0 ? results.size() : Math.min(topN, results.size());
    String model = rank.modelOf(body);
    ObjectNode root = Rank.JSON.createObjectNode().put("id", rank.newId("rerank-")).put("model", model);
    root.putObject("usage").put("total_tokens", total);
    ArrayNode out = root.putArray("results");
    results.subList(0, keep).forEach(out::add);
    return new Rank.Pooled(rank.poolingAdapter(model, prompts), prompts, root.toString());
  }

  /** {@code /score}: one score per pair, in input order. */
  static Rank.Pooled score(Rank rank, JsonNode body) throws CompletionRequest.RequestException {
    requireObject(body);
    List<String> first = texts(body.get("text_1"), "text_1");
    List<String> second = texts(body.get("text_2"), "text_2");
    if (first.isEmpty() || second.isEmpty()) {
      throw bad("'text_1' and 'text_2' must each be a string or a non-empty list of strings.", "text_1");
    }
    if (first.size() != 1 && first.size() != second.size()) {
      throw bad("'text_1' must hold one text, or as many as 'text_2'.", "text_1");
    }
    List<int[]> prompts = new ArrayList<>();
    String model = rank.modelOf(body);
    ObjectNode root = Rank.JSON.createObjectNode().put("id", rank.newId("score-")).put("object", "list")
        .put("created", rank.created()).put("model", model);
    ArrayNode data = root.putArray("data");
    int total = 0;
    for (int i = 0; i < second.size(); i++) {
      String a = first.get(first.size() == 1 ? 0 : i);
      int[] ids = pair(rank, a, second.get(i));
      prompts.add(ids);
      total += ids.length;
      data.addObject().put("index", i).put("object", "score").put("score", score(rank, a, second.get(i)));
    }
    root.putObject("usage").put("prompt_tokens", total).put("total_tokens", total).put("completion_tokens", 0);
    return new Rank.Pooled(rank.poolingAdapter(model, prompts), prompts, root.toString());
  }

  private static int[] pair(Rank rank, String query, String document) {
    int[] q = rank.tokenizer.encode(query, true);
    int[] d = rank.tokenizer.encode(document, false);
    int[] ids = Arrays.copyOf(q, q.length + d.length);
    System.arraycopy(d, 0, ids, q.length, d.length);
    return ids;
  }

  private static double score(Rank rank, String a, String b) {
    float[] x = embedding(rank.tokenizer.encode(a, false), SCORE_DIMENSIONS);
    float[] y = embedding(rank.tokenizer.encode(b, false), SCORE_DIMENSIONS);
    double dot = 0;
    for (int i = 0; i < SCORE_DIMENSIONS; i++) {
      dot += x[i] * y[i];
    }
    return Math.max(0, Math.min(1, (dot + 1) / 2));
  }

  /** A string or a list of strings. */
  private static List<String> texts(JsonNode v, String field) throws CompletionRequest.RequestException {
    List<String> out = new ArrayList<>();
    if (v != null && v.isTextual()) {
      out.add(v.asText());
      return out;
    }
    if (v == null || !v.isArray()) {
      throw bad("'" + field + "' must be a string or a list of strings.", field);
    }
    for (JsonNode t : v) {
      if (!t.isTextual()) {
        throw bad("'" + field + "' must be a string or a list of strings.", field);
      }
      out.add(t.asText());
    }
    return out;
  }

  private static void requireObject(JsonNode body) throws CompletionRequest.RequestException {
    if (!body.isObject()) {
      throw bad("The request body must be a JSON object.", null);
    }
  }

  private static CompletionRequest.RequestException bad(String message, String param) {
    return new CompletionRequest.RequestException(ApiError.badRequest(message, param));
  }
}
