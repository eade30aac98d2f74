import { NotFoundNotice } from "@/components/navigation/not-found-notice";

export default function NotFound() {
  return <NotFoundNotice />;
}
