#ifndef CCHAFA_SHIM_H
#define CCHAFA_SHIM_H

// libchafa, for cardwallet-bench's images figure only: it measures our own scaler and encoders
// against chafa's (docs/Images.md says which we chose and why). Debian's libchafa-dev does not
// pull in the GLib headers chafa.h needs; libglib2.0-dev is installed beside it.
#include <chafa.h>

#endif
