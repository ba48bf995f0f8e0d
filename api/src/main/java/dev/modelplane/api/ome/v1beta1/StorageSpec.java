package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import java.util.Map;

/**
 * Where a set of files lives and, for model weights, on which nodes the model agent places a copy of it. Base
 * models and fine-tuned weights use it for their weights; a BenchmarkJob uses it for its dataset and for the place
 * its results are written to.
 *
 * @param path Absolute directory on each node where the files are stored. Serving pods mount this directory
 *     read-only and find it in {@code MODEL_PATH}. When it is not set the agent derives a directory from its own
 *     root and the URI.
 * @param schemaPath Location, inside the storage, of a schema or configuration file describing the model, used to
 *     check or customise how it is loaded. Recorded, not acted on: the agent reads the model's metadata from its
 *     downloaded config.json, model_index.json or GGUF header.
 * @param parameters Extra settings for the storage backend that override its defaults, such as region, profile,
 *     authentication type or the Secret key holding a token.
 * @param key Name of the Kubernetes Secret with the credentials for the storage (for Hugging Face: a Secret whose
 *     {@code token} key holds the access token). For cluster-scoped objects the Secret is looked up in the
 *     operator's namespace.
 * @param storageUri Source of the files, by scheme:
 *     oci://n/&lt;namespace&gt;/b/&lt;bucket&gt;/o/&lt;prefix&gt; (OCI Object Storage),
 *     hf://&lt;org&gt;/&lt;model&gt;[@&lt;revision&gt;] (Hugging Face Hub),
 *     pvc://[&lt;namespace&gt;:]&lt;claim&gt;/&lt;path&gt;, s3://&lt;bucket&gt;[@&lt;region&gt;]/&lt;prefix&gt;,
 *     az://&lt;account&gt;/&lt;container&gt;/&lt;blob&gt;, gs://&lt;bucket&gt;/&lt;object&gt;,
 *     github://&lt;owner&gt;/&lt;repo&gt;[@&lt;tag&gt;], local://&lt;path&gt; (already on the node) or
 *     vendor://&lt;vendor&gt;/&lt;type&gt;/&lt;path&gt;.
 * @param nodeSelector Node labels that must all be present for a node to receive a copy of the files. No selector
 *     and no affinity means every node the agent runs on.
 * @param nodeAffinity Node affinity rules that further narrow the nodes that receive a copy. The required terms
 *     decide; preferred terms have no effect on where files are placed.
 * @param downloadPolicy Whether the agent downloads again or reuses a matching copy already on the node:
 *     {@code AlwaysDownload} or {@code ReuseIfExists}. Unset behaves like {@code AlwaysDownload}. Recorded, not
 *     acted on: every model gets its own copy, so ReuseIfExists behaves like AlwaysDownload.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StorageSpec(
    String path,
    String schemaPath,
    Map<String, String> parameters,
    String key,
    @Required
    @ValidationRule(value = KNOWN_SCHEME, message = "storageUri must start with one of oci://, pvc://, hf://, s3://, "
        + "az://, gs://, github://, local:// or vendor://")
    String storageUri,
    @SchemaPatch("{\"x-kubernetes-map-type\":\"atomic\"}") Map<String, String> nodeSelector,
    @SchemaPatch(NODE_AFFINITY_RULES) NodeAffinity nodeAffinity,
    DownloadPolicy downloadPolicy) {

  /**
   * The schemes OME reads. A prefix test rather than a regular expression keeps the rule's cost independent of the
   * field's length, which has no bound; the full form of each scheme is checked by the operator.
   */
  static final String KNOWN_SCHEME = "['oci://', 'pvc://', 'hf://', 's3://', 'az://', 'gs://', 'github://', "
      + "'local://', 'vendor://'].exists(p, self.startsWith(p))";
  /** A node selector requirement list: atomic, each entry with a key and an operator. */
  private static final String REQUIREMENTS = "{\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"required\":[\"key\","
      + "\"operator\"],\"properties\":{\"values\":{\"x-kubernetes-list-type\":\"atomic\"}}}}";
  /** A node selector term: its expression and field requirement lists. */
  private static final String TERM = "{\"matchExpressions\":" + REQUIREMENTS + ",\"matchFields\":" + REQUIREMENTS + "}";
  /**
   * The rules of {@code corev1.NodeAffinity} that fabric8's model does not carry: required members and atomic
   * lists, as the apiserver enforces them on pods.
   */
  static final String NODE_AFFINITY_RULES = "{\"properties\":{"
      + "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"required\":[\"nodeSelectorTerms\"],"
      + "\"properties\":{\"nodeSelectorTerms\":{\"x-kubernetes-list-type\":\"atomic\","
      + "\"items\":{\"properties\":" + TERM + "}}}},"
      + "\"preferredDuringSchedulingIgnoredDuringExecution\":{\"x-kubernetes-list-type\":\"atomic\","
      + "\"items\":{\"required\":[\"preference\",\"weight\"],\"properties\":{\"weight\":{\"format\":\"int32\"},"
      + "\"preference\":{\"properties\":" + TERM + "}}}}}}";
}
