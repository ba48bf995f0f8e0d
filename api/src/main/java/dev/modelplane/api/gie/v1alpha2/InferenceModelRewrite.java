package dev.modelplane.api.gie.v1alpha2;

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
 * Changes the model name a request sent to an InferencePool asks for before the request is served: a request whose
 * body names a matched model goes on under one of the rule's target names, picked by weight. This points a name
 * clients already use at a new model, or splits one name's traffic between models for a canary or an A/B test.
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
