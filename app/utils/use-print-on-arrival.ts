import { useEffect } from "react";

/**
 * The own passport's "Print or save as PDF" opens the print view at #print: once it has loaded
 * (only the owner's page runs scripts), the print dialog opens, and the address loses the marker.
 */
export function usePrintOnArrival() {
  useEffect(() => {
    if (window.location.hash !== "#print") return;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    window.print();
  }, []);
}
