package dev.modelplane.router.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.models.ModelCatalog;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RequestParsers;
import dev.modelplane.router.request.RouterException;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;

/**
 * The pool of a request no pool was named for, when the router serves several: the one serving the model the body
 * names ({@link ModelCatalog}); among several, the least loaded (requests in flight per endpoint), then the first by
 * name. A model no pool serves gets OpenAI's 404 ({@code model_not_found}), or 503 with {@code Retry-After: 1} while
 * some server has not yet said what it serves (just started, still loading). Also the gateway's own
 * {@code GET /v1/models}: every name served, across pools.
 */
final class ModelRouting {
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ModelRouting() {
  }

  /**
   * The pool for {@code body}.
   *
   * @throws RouterException 400 when the body names no model, 404 ({@code model_not_found}) when no pool serves it,
   *     503 when that is not known yet
   */
  static EndpointPool choose(ModelCatalog catalog, String contentType, byte[] body) {
    String model = model(contentType, body);
    if (model == null || model.isEmpty()) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "the request names no model; this gateway serves several "
          + "inference pools and chooses one by the body's \"model\"");
    }
    List<EndpointPool> serving = catalog.serving(model);
    if (serving.isEmpty() && !catalog.complete()) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no pool is known to serve the model `" + model
          + "` yet: some model servers have not said which models they serve", 1);
    }
    if (serving.isEmpty()) {
      throw new RouterException(ErrorCode.MODEL_NOT_FOUND, "The model `" + model + "` does not exist.");
    }
    return serving.stream().min(Comparator.comparingDouble(ModelRouting::load)).orElseThrow();
  }

  /** Requests in flight per endpoint; a pool without endpoints counts as full. */
  private static double load(EndpointPool pool) {
    List<EndpointState> endpoints = pool.endpoints();
    if (endpoints.isEmpty()) {
      return Double.MAX_VALUE;
    }
    long inFlight = 0;
    for (EndpointState e : endpoints) {
      inFlight += e.inFlight();
    }
    return (double) inFlight / endpoints.size();
  }

  /**
   * The model a body names: the {@code model} field of a multipart form (an audio upload), else the top-level
   * {@code model} string of a JSON object; {@code null} when there is none.
   */
  static String model(String contentType, byte[] body) {
    String multipart = RequestParsers.multipartModel(contentType, body);
    return multipart != null ? multipart : model(body);
  }

  /** The body's top-level {@code model} string, or {@code null} (not JSON, not an object, no such string). */
  static String model(byte[] body) {
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if ("model".equals(field)) {
          return value == JsonToken.VALUE_STRING ? p.getText() : null;
        }
        p.skipChildren();
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  /** OpenAI's model object for {@code id}, or {@code null} when no pool serves it. */
  static String one(ModelCatalog catalog, String id) {
    for (ModelCatalog.Entry e : catalog.entries()) {
      if (e.id().equals(id)) {
        return model(MAPPER.createObjectNode(), e).toString();
      }
    }
    return null;
  }

  private static ObjectNode model(ObjectNode m, ModelCatalog.Entry e) {
    m.put("id", e.id()).put("object", "model").put("created", 0).put("owned_by", "modelplane");
    if (e.parent() != null) {
      m.put("parent", e.parent());
    }
    return m;
  }

  /** OpenAI's model list of every name the pools serve (LoRA adapters with their base model as {@code parent}). */
  static String list(ModelCatalog catalog) {
    ObjectNode root = MAPPER.createObjectNode().put("object", "list");
    ArrayNode data = root.putArray("data");
    for (ModelCatalog.Entry e : catalog.entries()) {
      model(data.addObject(), e);
    }
    return root.toString();
  }
}
