// fuzz.py's driver: vqcuda's speed_chroma on raw planar frames, printed as harness.c prints
// libvmaf's (same arguments).
#include "speed_chroma.hpp"
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace vq::speed;
int main(int argc,char**argv){
  int W=atoi(argv[3]),H=atoi(argv[4]),ssx=atoi(argv[5]),ssy=atoi(argv[6]),bpc=atoi(argv[7]); int nf=atoi(argv[8]);
  Options o; o.kernelscale=atof(argv[9]); o.prescale=atof(argv[10]); o.prescale_method=argv[11]; o.sigma_nn=atof(argv[12]); o.nn_floor=atof(argv[13]); o.max_val=atof(argv[14]); o.weight_var_mode=atoi(argv[15]);
  std::string why=check(o,W,H,ssx,ssy,true,bpc); if(!why.empty()){printf("REFUSED %s\n",why.c_str());return 0;}
  int B=bpc>8?2:1; int cw=(W+ssx)>>ssx, ch=(H+ssy)>>ssy; size_t ys=(size_t)W*H*B, cs=(size_t)cw*ch*B, fs=ys+2*cs;
  std::vector<uint8_t> r(fs), d(fs); FILE*fr=fopen(argv[1],"rb"),*fd=fopen(argv[2],"rb");
  Dims dm=dims(o,W,H,ssx,ssy);
  for(int f=0;f<nf;f++){ if(fread(r.data(),1,fs,fr)!=fs||fread(d.data(),1,fs,fd)!=fs) break;
    auto view=[&](std::vector<uint8_t>&b,int p){VqPlaneView v; v.data=b.data()+ys+(p?cs:0); v.pitch=cw*B; v.w=cw; v.h=ch; v.bytes=B; v.shift=0; v.step=1; return v;};
    Result res=chroma_frame(o,dm,view(r,0),view(r,1),view(d,0),view(d,1),bpc);
    printf("%.17g %.17g %.17g\n",res.u,res.v,res.uv);}
}
