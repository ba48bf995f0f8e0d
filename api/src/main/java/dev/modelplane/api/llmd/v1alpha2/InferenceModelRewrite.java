package dev.modelplane.api.llmd.v1alpha2;

import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Changes the model name a request sent to an InferencePool asks for, in llm-d's API group. The fields are those of
 * the Gateway API Inference Extension's experimental InferenceModelRewrite, which llm-d's router reads from this
 * group in preference when both are installed: a request whose body names a matched model goes on under one of the
 * rule's target names, picked by weight.
 */
@Group(InferenceObjective.GROUP)
@Version(InferenceObjective.VERSION)
@Kind("InferenceModelRewrite")
@Plural("inferencemodelrewrites")
@Singular("inferencemodelrewrite")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Inference Pool", jsonPath = ".spec.poolRef.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class InferenceModelRewrite extends CustomResource<InferenceModelRewriteSpec, InferenceModelRewriteStatus>
    implements Namespaced {
}
