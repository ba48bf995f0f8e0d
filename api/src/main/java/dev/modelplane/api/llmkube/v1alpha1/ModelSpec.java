package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;

/**
 * Where a model's weights come from, how to verify and cache them, and what hardware serves them.
 *
 * @param source Where to get the model. Either a URL with scheme {@code http}, {@code https}, {@code file},
 *     {@code pvc} ({@code pvc://CLAIM/PATH}, pre-staged on a PersistentVolumeClaim), {@code hf}
 *     ({@code hf://ORG/REPO}, optionally followed by {@code @REVISION}) or {@code s3} ({@code s3://BUCKET/KEY}); or
 *     an absolute path on the node; or a bare Hugging Face repository id {@code ORG/REPO}, which the runtime
 *     downloads itself. It may name a single file or, together with {@code files}, a repository or bucket prefix.
 * @param files Files to stage from a repository or bucket {@code source}, as paths relative to it. The first entry is
 *     the model file given to the runtime; the others are staged beside it (split GGUF parts, for example). Leave
 *     empty when {@code source} names one file.
 * @param mmproj Multimodal projector file to stage from {@code source} (relative path) and pass to runtimes that take
 *     one. Needs {@code files}.
 * @param sha256 Expected SHA-256 of the model file, 64 hexadecimal digits. When set, a downloaded or copied file that
 *     does not match is rejected.
 * @param sourceSecretRef Secret whose keys are given as environment variables to the download container; for
 *     {@code s3://} sources, {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_REGION} and
 *     {@code AWS_ENDPOINT_URL}.
 * @param refreshPolicy Whether a cached copy is downloaded again when the source changes; {@code IfNotPresent} by
 *     default.
 * @param prefetch Downloads a remote source into the namespace's shared model cache right away, with a Job, instead
 *     of when the first InferenceService starts. Ignored for local and {@code pvc://} sources.
 * @param prefetchTolerations Tolerations of the prefetch Job's pod only, so the download can run on tainted nodes
 *     (for example GPU nodes holding node-local cache storage). They do not affect where the model is served.
 * @param format File format of the weights; {@code gguf} by default.
 * @param quantization Free-text label of the weights' quantisation, for example {@code Q4_K_M}; informational.
 * @param hardware Accelerator and GPU requirements for serving the model.
 * @param resources CPU and memory the model needs; informational.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelSpec(
    @Required @Pattern("^(https?|file|pvc|hf|s3)://.*|^/[^\\s]+$|^[a-zA-Z0-9][\\w\\-\\.\\/]+$") String source,
    List<String> files,
    String mmproj,
    @Pattern("^[a-fA-F0-9]{64}$") String sha256,
    @SchemaPatch("{\"properties\":{\"name\":{\"default\":\"\"}},\"x-kubernetes-map-type\":\"atomic\"}")
    LocalObjectReference sourceSecretRef,
    @Default("IfNotPresent") RefreshPolicy refreshPolicy,
    Boolean prefetch,
    List<Toleration> prefetchTolerations,
    @Default("gguf") ModelFileFormat format,
    String quantization,
    ModelHardware hardware,
    ModelResources resources) {
}
