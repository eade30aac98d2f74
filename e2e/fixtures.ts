import { test as base } from "@playwright/test";

import { AnalysisPage } from "./pages/analysis-page";
import { EvidencePanel } from "./pages/evidence-panel";
import { HomePage } from "./pages/home-page";
import { ProjectPage } from "./pages/project-page";
import { SynthesisPage } from "./pages/synthesis-page";
import { ViewerPage } from "./pages/viewer-page";

type Pages = { homePage: HomePage; projectPage: ProjectPage; viewerPage: ViewerPage; evidencePanel: EvidencePanel; synthesisPage: SynthesisPage; analysisPage: AnalysisPage };

// The fixture callback is named `provide`, not `use`: react-hooks lint mistakes `use(...)` for React's hook.
export const test = base.extend<Pages>({
  homePage: async ({ page }, provide) => provide(new HomePage(page)),
  projectPage: async ({ page }, provide) => provide(new ProjectPage(page)),
  viewerPage: async ({ page }, provide) => provide(new ViewerPage(page)),
  evidencePanel: async ({ page }, provide) => provide(new EvidencePanel(page)),
  synthesisPage: async ({ page }, provide) => provide(new SynthesisPage(page)),
  analysisPage: async ({ page }, provide) => provide(new AnalysisPage(page)),
});

export { expect } from "@playwright/test";
